import type { Database } from 'better-sqlite3';
import type { LabelCentroid, LabelVectorReader } from '../../ports/label-vectors.js';
import { blobToVector } from './sqlite-embedding.queue.js';
import { optionalWithin } from '../sql/filter-sql.js';

export class SqliteLabelVectorReader implements LabelVectorReader {
  constructor(private readonly db: Database) {}

  async conversationVectors(conversationId: string, limit: number) {
    const rows = this.db.prepare(`SELECT v.model, v.vector FROM message_vectors v JOIN messages m ON m.seq = v.message_seq
      WHERE m.conversation_id = ? ORDER BY v.message_seq DESC LIMIT ?`).all(conversationId, limit) as
      Array<{ model: string; vector: Buffer }>;
    if (rows.length === 0) return null;
    const model = rows[0]!.model;
    return { model, vectors: rows.filter((row) => row.model === model).map((row) => blobToVector(row.vector)) };
  }

  async labelCentroids(model: string, excludeConversationId: string, perLabel: number, within?: readonly string[]): Promise<LabelCentroid[]> {
    const scope = optionalWithin('c.folder', within);
    const counts = new Map((this.db.prepare(`SELECT label, count(*) AS n FROM conversations c WHERE id != ? AND ${scope.sql} GROUP BY label`)
      .all(excludeConversationId, ...scope.params) as Array<{ label: string; n: number }>).map((row) => [row.label, row.n]));
    const sums = new Map<string, { sum: Float32Array; n: number }>();
    const rows = this.db.prepare(`SELECT label, vector FROM (
        SELECT c.label AS label, v.vector AS vector,
          row_number() OVER (PARTITION BY c.label ORDER BY v.message_seq DESC) AS rank
        FROM message_vectors v JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
        WHERE v.model = ? AND c.id != ? AND ${scope.sql})
      WHERE rank <= ?`).iterate(model, excludeConversationId, ...scope.params, perLabel) as IterableIterator<{ label: string; vector: Buffer }>;
    for (const row of rows) {
      const vector = blobToVector(row.vector);
      let entry = sums.get(row.label);
      if (!entry) sums.set(row.label, (entry = { sum: new Float32Array(vector.length), n: 0 }));
      if (entry.sum.length !== vector.length) continue;
      for (let i = 0; i < vector.length; i += 1) entry.sum[i]! += vector[i]!;
      entry.n += 1;
    }
    return [...sums].map(([label, { sum, n }]) => ({
      label,
      conversations: counts.get(label) ?? 0,
      centroid: sum.map((value) => value / n),
    }));
  }

  async labelUsage(limit: number, within?: readonly string[]) {
    const scope = optionalWithin('folder', within);
    return this.db.prepare(`SELECT label, count(*) AS conversations FROM conversations WHERE ${scope.sql}
      GROUP BY label ORDER BY conversations DESC, label LIMIT ?`).all(...scope.params, limit) as Array<{ label: string; conversations: number }>;
  }
}
