import { Type } from 'typebox';

export const EmbeddingStatusResponse = Type.Object({
  pending: Type.Integer(),
  done: Type.Integer(),
  failed: Type.Integer(),
  model: Type.Union([Type.String(), Type.Null()]),
  dimension: Type.Union([Type.Integer(), Type.Null()]),
  indexed: Type.Integer({ description: 'Vectors semantic search finds: in the approximate graph or waiting for it' }),
  graph_backlog: Type.Integer({
    description: 'Of those, vectors waiting to go into the approximate graph; an exact scan finds them meanwhile',
  }),
  searchable: Type.Boolean({
    description: 'Semantic search finds every stored message: nothing pending embedding or being handed to the index, '
      + 'no catch-up after a start running (vectors waiting for the graph are found by an exact scan)',
  }),
  index_catch_up: Type.Object({
    state: Type.String({ description: 'empty, loading (the saved graph), catching_up (adding the vectors it lacks), ready or failed' }),
    indexed: Type.Integer(),
    loaded_saved: Type.Union([Type.Boolean(), Type.Null()]),
    added: Type.Integer({ description: 'Stored vectors the saved graph lacked, added since the start' }),
    started_at: Type.Union([Type.String(), Type.Null()]),
    finished_at: Type.Union([Type.String(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
  }),
  model_mismatch: Type.Union([Type.Object({ recorded: Type.String(), current: Type.String() }), Type.Null()]),
  rebuild: Type.Union([Type.Object({
    started_at: Type.String(), total: Type.Integer(), done: Type.Integer(), complete: Type.Boolean(),
  }), Type.Null()]),
  worker: Type.Record(Type.String(), Type.Unknown()),
});
