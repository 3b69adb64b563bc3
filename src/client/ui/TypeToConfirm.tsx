// A danger box whose button opens a dialog that asks to type a word (an e-mail, a slug) before an act that cannot be
// undone: deleting the account (islands/DeleteAccount.tsx) or a workspace (islands/DeleteWorkspace.tsx).
import { type ReactNode, useState } from "react";
import { errorMessage } from "../api.ts";
import { buttonClass, Dialog } from "./Dialog.tsx";

export type TypeToConfirmProps = {
  /** The box's heading, and what it says before the button. */
  heading: ReactNode;
  children: ReactNode;
  /** The word to type, how typing it is compared, and the input's id and type. */
  word: string;
  matches: (typed: string) => boolean;
  inputId: string;
  inputType?: "email" | "text";
  openLabel: string;
  title: string;
  description: string;
  submitLabel: string;
  /** Does the act with what was typed (trimmed); a thrown error is shown in the dialog. */
  onConfirm: (typed: string) => Promise<void>;
};

export function TypeToConfirm(props: TypeToConfirmProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirmed = props.matches(typed.trim());

  const close = () => {
    if (busy) return;
    setOpen(false);
    setTyped("");
    setProblem(null);
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    try {
      await props.onConfirm(typed.trim());
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <>
      <div className="rounded-md border border-red-200 bg-red-50 p-4">
        {props.heading}
        {props.children}
        <button type="button" className={`${buttonClass.danger} mt-3`} onClick={() => setOpen(true)}>
          {props.openLabel}
        </button>
      </div>
      <Dialog open={open} title={props.title} description={props.description} onDismiss={close}>
        <form onSubmit={submit}>
          <label htmlFor={props.inputId} className="block text-sm font-medium">{`Type ${props.word} to confirm`}</label>
          <input
            id={props.inputId}
            type={props.inputType ?? "text"}
            autoComplete="off"
            value={typed}
            onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
            className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
          />
          {problem && (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {problem}
            </p>
          )}
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className={buttonClass.secondary} onClick={close} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className={buttonClass.danger} disabled={!confirmed || busy}>
              {busy ? "Deleting…" : props.submitLabel}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
