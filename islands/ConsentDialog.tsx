// Terms and privacy consent: a dialog that cannot be dismissed until both boxes are ticked and recorded.
import { useState } from "react";
import { api, CONSENTED_EVENT } from "../src/client/api.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass, Dialog } from "../src/client/ui/Dialog.tsx";

export default function ConsentDialog() {
  const [open, setOpen] = useState(true);
  const [terms, setTerms] = useState(false);
  const [privacy, setPrivacy] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!terms || !privacy) {
      toast({
        title: "Acceptance required",
        description: "Please accept both terms and conditions and privacy policy to continue.",
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    try {
      await api("/api/auth/consent", { method: "POST", json: { termsAccepted: true, privacyAccepted: true } });
      // Refresh the current-user data: the server no longer asks for consent.
      await api("/api/auth/user");
      setOpen(false);
      toast({ title: "Thank you", description: "Your consent has been recorded successfully." });
      window.dispatchEvent(new Event(CONSENTED_EVENT));
    } catch {
      toast({
        title: "Error",
        description: "Failed to record your consent. Please try again.",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title="Before you continue"
      description="LinkPrev needs your consent to its terms and privacy policy."
    >
      <div className="space-y-3 text-sm">
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            checked={terms}
            onChange={(e) => setTerms((e.target as HTMLInputElement).checked)}
            className="mt-0.5"
          />
          <span>
            I accept the{" "}
            <a href="/terms" target="_blank" className="text-indigo-700 underline">
              terms and conditions
            </a>
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            checked={privacy}
            onChange={(e) => setPrivacy((e.target as HTMLInputElement).checked)}
            className="mt-0.5"
          />
          <span>
            I accept the{" "}
            <a href="/privacy" target="_blank" className="text-indigo-700 underline">
              privacy policy
            </a>
          </span>
        </label>
        <div className="flex justify-end">
          <button type="button" className={buttonClass.primary} onClick={submit} disabled={busy}>
            Continue
          </button>
        </div>
      </div>
    </Dialog>
  );
}
