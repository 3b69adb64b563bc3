// The Domains page's working part: add a domain, the DNS records to publish (with copy buttons), its status with the
// last check and the reason, "Check now", where / and unknown addresses go, its app-link documents (Apple's
// app-site-association and Android's asset links, docs/decisions/0060), and removal (refused while links use it).
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { shortDate } from "../src/client/format.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import type { DomainJson } from "../src/domains/wire.ts";

const STATUS_TEXT: Record<DomainJson["status"], string> = {
  pending: "Pending: publish the records below, then check",
  verified: "Verified: serving your links",
  failing: "Failing: records missing, still served for up to 7 days",
  invalid: "Invalid: records missing for 7 days, not served",
};
const input = "min-w-0 flex-1 rounded-md border border-gray-300 px-3 py-2 text-sm font-normal";
const field = "flex min-w-0 flex-1 flex-col gap-1 text-sm font-medium text-gray-700";
const AASA_EXAMPLE = '{"applinks": {"details": [{"appIDs": ["TEAMID.com.example.app"], "components": [{"/": "/*"}]}]}}';
const ASSET_LINKS_EXAMPLE =
  '[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["AB:CD:…"]}}]';
const failed = (error: unknown) => toast({ title: "Error", description: errorMessage(error), variant: "destructive" });

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: "Copied!", description: text });
  } catch {
    toast({ title: "Error", description: "Failed to copy", variant: "destructive" });
  }
}

function Domain({
  domain,
  onChange,
  onRemoved,
}: {
  domain: DomainJson;
  onChange: (d: DomainJson) => void;
  onRemoved: () => void;
}) {
  const [rootUrl, setRootUrl] = useState(domain.rootUrl ?? "");
  const [notFoundUrl, setNotFoundUrl] = useState(domain.notFoundUrl ?? "");
  const [aasa, setAasa] = useState(domain.appleAppSiteAssociation ?? "");
  const [assetLinks, setAssetLinks] = useState(domain.assetLinks ?? "");
  const [checking, setChecking] = useState(false);
  const check = async () => {
    setChecking(true);
    try {
      const checked = await api<DomainJson>(`/api/domains/${domain.id}/verify`, { method: "POST" });
      onChange(checked);
      toast({ title: `${checked.hostname}: ${checked.status}`, description: checked.reason ?? undefined });
    } catch (error) {
      failed(error);
    } finally {
      setChecking(false);
    }
  };
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      onChange(
        await api<DomainJson>(`/api/domains/${domain.id}`, {
          method: "PATCH",
          json: {
            rootUrl: rootUrl.trim() || null,
            notFoundUrl: notFoundUrl.trim() || null,
            // As written (served byte-exact); only blank means none.
            appleAppSiteAssociation: aasa.trim() ? aasa : null,
            assetLinks: assetLinks.trim() ? assetLinks : null,
          },
        }),
      );
      toast({ title: "Saved" });
    } catch (error) {
      failed(error);
    }
  };
  const remove = async () => {
    try {
      await api(`/api/domains/${domain.id}`, { method: "DELETE" });
      onRemoved();
      toast({ title: `${domain.hostname} removed` });
    } catch (error) {
      failed(error);
    }
  };
  return (
    <li className="py-4" data-testid={`domain-${domain.hostname}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{domain.hostname}</h3>
        <span className="flex gap-2">
          <button type="button" className={buttonClass.secondary} onClick={check} disabled={checking}>
            {checking ? "Checking…" : "Check now"}
          </button>
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={remove}
            aria-label={`Remove ${domain.hostname}`}
          >
            Remove
          </button>
        </span>
      </div>
      <p className="mt-1 text-sm" data-testid="domain-status">
        {STATUS_TEXT[domain.status]}
        {domain.lastCheckedAt ? ` · last checked ${shortDate(domain.lastCheckedAt)}` : " · not checked yet"}
        {domain.links > 0 ? ` · ${domain.links} link${domain.links === 1 ? "" : "s"}` : ""}
      </p>
      {domain.reason && <p className="mt-1 text-sm text-red-700">{domain.reason}</p>}
      {domain.status !== "verified" && (
        <table className="mt-3 w-full text-left text-sm">
          <thead>
            <tr className="text-gray-500">
              <th className="pr-3 font-medium">Type</th>
              <th className="pr-3 font-medium">Name</th>
              <th className="pr-3 font-medium">Value</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {domain.records.map((record) => (
              <tr key={`${record.type} ${record.value}`}>
                <td className="pr-3">{record.type}</td>
                <td className="break-all pr-3 font-mono">{record.name}</td>
                <td className="break-all pr-3 font-mono">{record.value}</td>
                <td>
                  <button
                    type="button"
                    className={buttonClass.secondary}
                    onClick={() => copy(record.value)}
                    aria-label={`Copy ${record.type} value`}
                  >
                    Copy
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={save} className="mt-3 flex flex-wrap items-end gap-2">
        <label className={field} htmlFor={`root-${domain.id}`}>
          {`Where ${domain.hostname}/ goes`}
          <input
            id={`root-${domain.id}`}
            value={rootUrl}
            onChange={(e) => setRootUrl((e.target as HTMLInputElement).value)}
            placeholder="https://example.com (empty: a small page)"
            className={input}
          />
        </label>
        <label className={field} htmlFor={`missing-${domain.id}`}>
          Where unknown addresses go
          <input
            id={`missing-${domain.id}`}
            value={notFoundUrl}
            onChange={(e) => setNotFoundUrl((e.target as HTMLInputElement).value)}
            placeholder="https://example.com/404 (empty: the 404 page)"
            className={input}
          />
        </label>
        <div className="flex w-full flex-wrap gap-2">
          <label className={field} htmlFor={`aasa-${domain.id}`}>
            {`Apple app-site-association (served at ${domain.hostname}/.well-known/apple-app-site-association)`}
            <textarea
              id={`aasa-${domain.id}`}
              value={aasa}
              onChange={(e) => setAasa((e.target as HTMLTextAreaElement).value)}
              placeholder={AASA_EXAMPLE}
              rows={6}
              spellCheck={false}
              className={`${input} font-mono`}
            />
          </label>
          <label className={field} htmlFor={`assetlinks-${domain.id}`}>
            {`Android asset links (served at ${domain.hostname}/.well-known/assetlinks.json)`}
            <textarea
              id={`assetlinks-${domain.id}`}
              value={assetLinks}
              onChange={(e) => setAssetLinks((e.target as HTMLTextAreaElement).value)}
              placeholder={ASSET_LINKS_EXAMPLE}
              rows={6}
              spellCheck={false}
              className={`${input} font-mono`}
            />
          </label>
        </div>
        <button type="submit" className={buttonClass.secondary}>
          Save
        </button>
      </form>
    </li>
  );
}

type PointAt = { cnameTarget: string | null; addresses: string[] };

/** Where a subdomain and an apex point, said whatever is configured (PUBLIC_URL's host at least). */
function PointAtText({ pointAt: { cnameTarget, addresses } }: { pointAt: PointAt }) {
  const list = addresses.join(", ");
  if (!cnameTarget)
    return (
      <>
        Point your domain here with A/AAAA records to <code>{list}</code> (a subdomain too).
      </>
    );
  return (
    <>
      Point a subdomain (links.example.com) here with a CNAME to <code>{cnameTarget}</code>; an apex (example.com)
      {addresses.length > 0 ? (
        <>
          {" "}
          with A/AAAA records to <code>{list}</code>.
        </>
      ) : (
        <>
          {" "}
          with your DNS provider&apos;s ALIAS or ANAME record (a flattened CNAME) to <code>{cnameTarget}</code>.
        </>
      )}
    </>
  );
}

export default function DomainManager({
  domains: initial,
  instanceHost,
  pointAt,
}: {
  domains: DomainJson[];
  instanceHost: string;
  pointAt: PointAt;
}) {
  const [domains, setDomains] = useState(initial);
  const [hostname, setHostname] = useState("");
  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const domain = await api<DomainJson>("/api/domains", { method: "POST", json: { hostname } });
      setDomains([...domains, domain]);
      setHostname("");
    } catch (error) {
      failed(error);
    }
  };
  return (
    <section aria-labelledby="domains-title" className="rounded-lg border border-gray-200 p-6">
      <h2 id="domains-title" className="text-lg font-semibold">
        Your domains
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        Links on a domain of yours are shared as <code>https://your-domain/slug</code> once it is verified (until then,
        at their address on {instanceHost}, which every link keeps). A domain is removed only once no link uses it: move
        those links to another address or delete them first.
      </p>
      <p className="mt-1 text-sm text-gray-600" data-testid="point-at">
        <PointAtText pointAt={pointAt} />
      </p>
      <form onSubmit={add} className="mt-4 flex flex-wrap gap-2">
        <label className="sr-only" htmlFor="domain-hostname">
          Hostname
        </label>
        <input
          id="domain-hostname"
          value={hostname}
          onChange={(e) => setHostname((e.target as HTMLInputElement).value)}
          placeholder="links.example.com"
          maxLength={300}
          className={input}
        />
        <button type="submit" className={buttonClass.primary} disabled={!hostname.trim()}>
          Add domain
        </button>
      </form>
      <ul className="mt-2 divide-y divide-gray-100">
        {domains.map((domain) => (
          <Domain
            key={domain.id}
            domain={domain}
            onChange={(changed) => setDomains(domains.map((d) => (d.id === changed.id ? changed : d)))}
            onRemoved={() => setDomains(domains.filter((d) => d.id !== domain.id))}
          />
        ))}
        {domains.length === 0 && <li className="py-2 text-sm text-gray-500">No domains yet.</li>}
      </ul>
    </section>
  );
}
