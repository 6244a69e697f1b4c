/**
 * English function words that carry no topic, shared by the full-text query
 * builder and the builtin embedder (the LoCoMo study tuned both with this list). Contraction fragments
 * ("s", "t", "m", "ll", ...) are listed because tokens split at apostrophes.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'about', 'above', 'after', 'again', 'against', 'all', 'am', 'an', 'and', 'any', 'are', 'as', 'at',
  'be', 'because', 'been', 'before', 'being', 'below', 'between', 'both', 'but', 'by',
  'can', 'could', 'did', 'do', 'does', 'doing', 'down', 'during', 'each', 'few', 'for', 'from', 'further',
  'had', 'has', 'have', 'having', 'he', 'her', 'here', 'hers', 'herself', 'him', 'himself', 'his', 'how',
  'i', 'if', 'in', 'into', 'is', 'it', 'its', 'itself', 'just', 'me', 'might', 'more', 'most', 'must', 'my', 'myself',
  'no', 'nor', 'not', 'now', 'of', 'off', 'on', 'once', 'only', 'or', 'other', 'our', 'ours', 'ourselves', 'out',
  'over', 'own', 'same', 'shall', 'she', 'should', 'so', 'some', 'such', 'than', 'that', 'the', 'their', 'theirs',
  'them', 'themselves', 'then', 'there', 'these', 'they', 'this', 'those', 'through', 'to', 'too', 'under',
  'until', 'up', 'very', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who', 'whom', 'whose',
  'why', 'will', 'with', 'would', 'you', 'your', 'yours', 'yourself', 'yourselves', 'also', 'yet', 'ever', 'us',
  's', 't', 'm', 'd', 'll', 're', 've', 'don', 'didn', 'doesn', 'isn', 'wasn', 'aren', 'weren', 'won', 'wouldn',
  'couldn', 'shouldn', 'hasn', 'haven', 'hadn', 'ain', 'let', 'oh', 'hey', 'hi', 'yeah', 'wow', 'ok', 'okay',
]);
