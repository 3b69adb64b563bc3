// A secret the server shows once (an API token, a webhook's signing secret): the value and a Copy button.
import { copyWithToast } from "../clipboard.ts";
import { buttonClass } from "./Dialog.tsx";

export function ShownOnce({ what, value, testId }: { what: "token" | "secret"; value: string; testId: string }) {
  const heading =
    what === "token"
      ? "Copy your new token now: it is shown only once."
      : "Copy the signing secret now: it is shown only once.";
  return (
    <div className="mt-4 space-y-2 rounded-md border border-green-300 bg-green-50 p-4 text-sm" role="status">
      <p className="font-semibold">{heading}</p>
      <div className="flex flex-wrap items-center gap-3">
        <code data-testid={testId} className="block min-w-0 flex-1 break-all rounded bg-white px-2 py-1">
          {value}
        </code>
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() =>
            copyWithToast(value, {
              copied: `${what === "token" ? "Token" : "Secret"} copied to clipboard`,
              failed: `Failed to copy the ${what}`,
            })
          }
        >
          {what === "token" ? "Copy token" : "Copy secret"}
        </button>
      </div>
    </div>
  );
}
