// API tokens for the CLI: create (the token is shown once), list, revoke.
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { ShownOnce } from "../src/client/ui/ShownOnce.tsx";
import { shortDate } from "../src/client/format.ts";
import type { ApiTokenJson, NewApiTokenJson } from "../src/auth/wire.ts";

export default function ApiTokens({ tokens: initial, publicUrl }: { tokens: ApiTokenJson[]; publicUrl: string }) {
  const [tokens, setTokens] = useState(initial);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<string | null>(null);

  const create = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const token = await api<NewApiTokenJson>("/api/tokens", { method: "POST", json: { name } });
      setTokens([token, ...tokens]);
      setCreated(token.token);
      setName("");
    } catch (error) {
      toast({ title: "Error", description: errorMessage(error), variant: "destructive" });
    }
  };

  const revoke = async (id: number) => {
    try {
      await api(`/api/tokens/${id}`, { method: "DELETE" });
      setTokens(tokens.filter((t) => t.id !== id));
      toast({ title: "Token revoked" });
    } catch (error) {
      toast({ title: "Error", description: errorMessage(error), variant: "destructive" });
    }
  };

  return (
    <section aria-labelledby="tokens-title" className="rounded-lg border border-gray-200 p-6">
      <h2 id="tokens-title" className="text-lg font-semibold">
        API tokens
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        For the <code>linkprev</code> command line: <code>{`linkprev login --server ${publicUrl} --token …`}</code>
      </p>
      <form onSubmit={create} className="mt-4">
        <label className="block text-sm font-medium" htmlFor="token-name">
          Token name
        </label>
        <p id="token-name-hint" className="text-xs text-gray-600">
          Where you will use it, to tell your tokens apart
        </p>
        <div className="mt-1 flex flex-wrap gap-2">
          <input
            id="token-name"
            aria-describedby="token-name-hint"
            value={name}
            onChange={(e) => setName((e.target as HTMLInputElement).value)}
            placeholder="e.g. laptop"
            maxLength={100}
            className="min-w-0 flex-1 rounded-md border border-gray-300 px-3 py-2 text-sm"
          />
          <button type="submit" className={buttonClass.primary} disabled={!name.trim()}>
            Create token
          </button>
        </div>
      </form>
      {created && <ShownOnce what="token" value={created} testId="new-token" />}
      <ul className="mt-4 divide-y divide-gray-100">
        {tokens.map((token) => (
          <li key={token.id} className="flex items-center justify-between gap-2 py-2 text-sm">
            <span>
              <span className="font-medium">{token.name}</span>
              <span className="text-gray-500">{` · created ${shortDate(token.createdAt)} · ${token.lastUsedAt ? `last used ${shortDate(token.lastUsedAt)}` : "never used"}`}</span>
            </span>
            <button
              type="button"
              className={buttonClass.secondary}
              onClick={() => revoke(token.id)}
              aria-label={`Revoke ${token.name}`}
            >
              Revoke
            </button>
          </li>
        ))}
        {tokens.length === 0 && <li className="py-2 text-sm text-gray-500">No tokens yet.</li>}
      </ul>
    </section>
  );
}
