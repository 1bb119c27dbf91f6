/**
 * A row's button that ends something for good (revoke an API client, disable a user): red, and it
 * acts only after the person says yes to `question`, which names what stops working.
 */
export function DangerButton({ label, name, question, busy, onConfirmed }: { label: string; name: string; question: string; busy: boolean; onConfirmed: () => void }) {
  return (
    <button
      type="button"
      className="danger"
      disabled={busy}
      aria-label={name}
      onClick={() => {
        if (window.confirm(question)) onConfirmed();
      }}
    >
      {label}
    </button>
  );
}
