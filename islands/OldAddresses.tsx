// The editor's list of a link's earlier addresses (docs/decisions/0047): each still answers for the link after a
// rename or a move to another domain; Drop makes one answer 410 Gone for good, after a confirmation.
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass, Dialog } from "../src/client/ui/Dialog.tsx";
import type { LinkJson } from "../src/links/wire.ts";

export type OldAddressesProps = { linkId: number; addresses: NonNullable<LinkJson["oldAddresses"]> };

export default function OldAddresses({ linkId, addresses: initial }: OldAddressesProps) {
  const [addresses, setAddresses] = useState(initial);
  const [dropping, setDropping] = useState<(typeof initial)[number] | null>(null);
  const [busy, setBusy] = useState(false);
  if (addresses.length === 0) return null;
  const drop = async () => {
    if (!dropping) return;
    setBusy(true);
    try {
      await api(`/api/links/${linkId}/old-addresses/${dropping.id}`, { method: "DELETE" });
      setAddresses((list) => list.filter((address) => address.id !== dropping.id));
      toast({ title: "Address dropped", description: `${dropping.shortUrl} now answers "gone".` });
    } catch (error) {
      toast({ title: "Error", description: errorMessage(error), variant: "destructive" });
    }
    setBusy(false);
    setDropping(null);
  };
  return (
    <section
      aria-labelledby="old-addresses-heading"
      className="mt-8 rounded-md border border-gray-200 bg-white p-4"
      data-testid="old-addresses"
    >
      <h2 id="old-addresses-heading" className="text-lg font-semibold">
        Earlier addresses
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        This link was renamed or moved. Its earlier addresses still send people here, give crawlers this card and count
        their views to this link, so printed QR codes and shared posts keep working. Drop one to make it answer “gone”;
        no link of yours can take it again.
      </p>
      <ul className="mt-3 divide-y divide-gray-100">
        {addresses.map((address) => (
          <li key={address.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="break-all text-sm font-medium">{address.shortUrl}</span>
            <button
              type="button"
              className={buttonClass.secondary}
              onClick={() => setDropping(address)}
              aria-label={`Drop ${address.shortUrl}`}
            >
              Drop
            </button>
          </li>
        ))}
      </ul>
      <Dialog
        open={dropping !== null}
        title="Drop this address?"
        description={`${dropping?.shortUrl ?? ""} will answer “gone” to everyone, printed QR codes and shared posts included. This cannot be undone.`}
        onDismiss={() => !busy && setDropping(null)}
      >
        <div className="flex justify-end gap-2">
          <button type="button" className={buttonClass.secondary} onClick={() => setDropping(null)} disabled={busy}>
            Cancel
          </button>
          <button type="button" className={buttonClass.danger} onClick={drop} disabled={busy}>
            {busy ? "Dropping…" : "Drop"}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
