import * as context from './context/context.schemas.js';
import * as conversations from './conversations/conversations.schemas.js';
import * as embeddings from './embeddings/embeddings.schemas.js';
import * as exporting from './export/export.schemas.js';
import * as keys from './keys/keys.schemas.js';
import * as labels from './labels/labels.schemas.js';
import * as pruning from './pruning/pruning.schemas.js';
import * as search from './search/search.schemas.js';
import * as summaries from './summaries/summaries.schemas.js';
import * as system from './system/system.schemas.js';
import * as ui from './ui/ui.schemas.js';
import * as tools from '../mcp/tools.schemas.js';

/** Every use case's schemas by the name they are exported under: /openapi.json's components. */
export const FEATURE_SCHEMA_NAMES = schemaNamesOf({
  conversations, search, context, summaries, pruning, labels, exporting, embeddings, system, ui, keys, tools,
});

/** Names every schema object the modules export; a name two modules share is prefixed with its module's key. */
function schemaNamesOf(modules: Record<string, Record<string, unknown>>): ReadonlyMap<object, string> {
  const names = new Map<object, string>();
  const taken = new Set<string>();
  for (const [moduleKey, exports] of Object.entries(modules)) {
    for (const [exportName, value] of Object.entries(exports)) {
      if (typeof value !== 'object' || value === null || names.has(value)) continue;
      const name = taken.has(exportName) ? `${moduleKey}${exportName}` : exportName;
      taken.add(name);
      names.set(value, name);
    }
  }
  return names;
}
