import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}

/**
 * A modal on the native <dialog>: the browser traps focus, Escape closes it (the "cancel" event)
 * and focus returns to the control that opened it.
 */
export function Dialog({ open, title, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      return () => { if (dialog.open) dialog.close(); opener?.focus(); };
    }
    return undefined;
  }, [open]);
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby="dialog-title"
      onCancel={(event) => { event.preventDefault(); onClose(); }}
    >
      <h2 id="dialog-title">{title}</h2>
      {open ? children : null}
    </dialog>
  );
}
