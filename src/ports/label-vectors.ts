export interface LabelCentroid {
  label: string;
  /** Conversations carrying the label (other than the one asked about). */
  conversations: number;
  /** Mean of the label's message vectors (not normalized). */
  centroid: Float32Array;
}

/** Reads stored message vectors grouped the ways label suggestion needs. */
/** `within`, where taken: only conversations in these subtrees (a tenant's visible folders; none finds nothing). */
export interface LabelVectorReader {
  /** The conversation's stored message vectors (at most `limit`, newest first) with their model, or null when none. */
  conversationVectors(conversationId: string, limit: number): Promise<{ model: string; vectors: Float32Array[] } | null>;
  /** One centroid per label of the other conversations, from at most `perLabel` of its newest vectors of `model`. */
  labelCentroids(model: string, excludeConversationId: string, perLabel: number, within?: readonly string[]): Promise<LabelCentroid[]>;
  /** The most used labels with their conversation counts. */
  labelUsage(limit: number, within?: readonly string[]): Promise<Array<{ label: string; conversations: number }>>;
}
