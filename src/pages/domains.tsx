// Workspace settings, Domains: the workspace's custom domains (the working part is the DomainManager island; a role
// without domains.write sees the list as text).
import type { DomainJson } from "../domains/wire.ts";
import { DomainManager } from "./islands.ts";

/** pointAt: where owners point their hosts (DOMAIN_CNAME_TARGET, DOMAIN_ADDRESSES, else PUBLIC_URL's host). */
export type DomainsPageProps = {
  domains: DomainJson[];
  instanceHost: string;
  pointAt: { cnameTarget: string | null; addresses: string[] };
  allowed: number;
  manage: boolean;
};

export function DomainsPage({ domains, instanceHost, pointAt, allowed, manage }: DomainsPageProps) {
  return (
    <section aria-labelledby="domains-title">
      <h2 id="domains-title" className="mb-4 text-lg font-semibold">
        Domains
      </h2>
      {allowed === 0 ? (
        <p className="text-gray-700">
          Custom domains are available on the Pro and Enterprise plans.{" "}
          <a href="/pricing" className="text-indigo-700 underline">
            See the plans
          </a>
          .
        </p>
      ) : manage ? (
        <DomainManager domains={domains} instanceHost={instanceHost} pointAt={pointAt} />
      ) : (
        <ul className="divide-y divide-gray-100">
          {domains.map((domain) => (
            <li key={domain.id} className="flex justify-between gap-2 py-2 text-sm">
              <span className="font-medium">{domain.hostname}</span>
              <span className="text-gray-700">{domain.status}</span>
            </li>
          ))}
          {domains.length === 0 && <li className="py-2 text-sm text-gray-600">No custom domains yet.</li>}
        </ul>
      )}
    </section>
  );
}
