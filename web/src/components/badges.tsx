export function EmbeddingBadge({ state }: { state: string }) {
  const text = state === 'done' ? 'embedded' : state === 'failed' ? 'embedding failed' : 'embedding pending';
  return <span class={`badge badge-embed-${state}`} title={`Embedding: ${state}`}>{text}</span>;
}

export function StatusBadge({ status, pinned }: { status: string; pinned?: boolean }) {
  return (
    <>
      {pinned ? <span class="badge badge-pinned">pinned</span> : null}
      {status === 'archived' ? <span class="badge badge-archived">archived</span> : null}
    </>
  );
}

export function ImportanceMeter({ value }: { value: number }) {
  return (
    <span class="importance" title={`Importance ${value} of 10`}>
      <span class="importance-track" aria-hidden="true">
        <span class="importance-fill" style={{ width: `${value * 10}%` }} />
      </span>
      <span class="importance-value">{value}</span>
    </span>
  );
}
