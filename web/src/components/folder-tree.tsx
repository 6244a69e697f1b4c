import { useMemo, useState } from 'preact/hooks';
import type { FolderCount } from '../api-types.js';
import { formatNumber } from '../format.js';

export interface FolderNode {
  path: string;
  name: string;
  count: number;
  total: number;
  children: FolderNode[];
}

/** Turns the flat list of GET /api/v1/folders into a tree; missing ancestors are added with their subtree sums. */
export function buildFolderTree(folders: readonly FolderCount[]): FolderNode {
  const nodes = new Map<string, FolderNode>();
  const node = (path: string): FolderNode => {
    let found = nodes.get(path);
    if (!found) {
      found = { path, name: path === '/' ? 'All folders' : path.slice(path.lastIndexOf('/') + 1), count: 0, total: -1, children: [] };
      nodes.set(path, found);
      if (path !== '/') {
        const parentPath = path.slice(0, path.lastIndexOf('/')) || '/';
        node(parentPath).children.push(found);
      }
    }
    return found;
  };
  const root = node('/');
  for (const folder of folders) {
    const target = node(folder.folder);
    target.count = folder.count;
    target.total = folder.total;
  }
  const fill = (current: FolderNode): number => {
    current.children.sort((a, b) => a.name.localeCompare(b.name));
    const below = current.children.reduce((sum, child) => sum + fill(child), 0);
    if (current.total < 0) current.total = current.count + below;
    return current.total;
  };
  fill(root);
  return root;
}

interface FolderTreeProps {
  folders: readonly FolderCount[];
  selected: string | undefined;
  onSelect: (folder: string | undefined) => void;
}

/** Nested lists of buttons with disclosure toggles: every folder is reachable with Tab and Enter. */
export function FolderTree({ folders, selected, onSelect }: FolderTreeProps) {
  const root = useMemo(() => buildFolderTree(folders), [folders]);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(['/']));
  const isOpen = (path: string) =>
    expanded.has(path) || (selected !== undefined && (selected === path || selected.startsWith(path === '/' ? '/' : `${path}/`)));
  const toggle = (path: string) => setExpanded((previous) => {
    const next = new Set(previous);
    if (next.has(path)) next.delete(path); else next.add(path);
    return next;
  });

  const renderNode = (node: FolderNode, depth: number) => {
    const open = isOpen(node.path);
    const current = (selected ?? '/') === node.path;
    return (
      <li key={node.path}>
        <div class={`folder-row${current ? ' folder-current' : ''}`} style={{ paddingLeft: `${depth * 0.9}rem` }}>
          {node.children.length > 0 ? (
            <button type="button" class="folder-toggle" aria-expanded={open}
              aria-label={`${open ? 'Collapse' : 'Expand'} ${node.path}`} onClick={() => toggle(node.path)}>
              {open ? '▾' : '▸'}
            </button>
          ) : <span class="folder-toggle-spacer" aria-hidden="true" />}
          <button type="button" class="folder-name" aria-current={current ? 'true' : undefined}
            title={node.path} onClick={() => onSelect(node.path === '/' ? undefined : node.path)}>
            <span class="folder-label">{node.name}</span>
            <span class="folder-count"
              title={node.count === node.total ? undefined : `${node.count} directly in ${node.path}, ${node.total} with its subfolders`}>
              {formatNumber(node.total)}
            </span>
          </button>
        </div>
        {open && node.children.length > 0 ? <ul>{node.children.map((child) => renderNode(child, depth + 1))}</ul> : null}
      </li>
    );
  };

  return (
    <nav class="folder-tree" aria-label="Folders">
      <ul>{renderNode(root, 0)}</ul>
    </nav>
  );
}
