// /admin/domains: the user's custom domains (the working part is the DomainManager island).
import type { DomainJson } from "../domains/wire.ts";
import { DomainManager } from "./islands.ts";

/** pointAt: where owners point their hosts (DOMAIN_CNAME_TARGET, DOMAIN_ADDRESSES, else PUBLIC_URL's host). */
export type DomainsPageProps = {
  domains: DomainJson[];
  instanceHost: string;
  pointAt: { cnameTarget: string | null; addresses: string[] };
  allowed: number;
};

export function DomainsPage({ domains, instanceHost, pointAt, allowed }: DomainsPageProps) {
  return (
    <div>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Domains</h1>
        <a
          href="/admin"
          className="rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50"
        >
          ← Back to dashboard
        </a>
      </div>
      {allowed === 0 ? (
        <p className="text-gray-700">
          Custom domains are available on the Pro and Enterprise plans.{" "}
          <a href="/pricing" className="text-indigo-700 underline">
            See the plans
          </a>
          .
        </p>
      ) : (
        <DomainManager domains={domains} instanceHost={instanceHost} pointAt={pointAt} />
      )}
    </div>
  );
}
