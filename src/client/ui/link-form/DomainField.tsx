// The editor's domain picker: the instance host (every link's /go address) or one of the owner's custom domains,
// where the link is then shared as https://domain/slug once the domain is verified (until then, at the instance
// host's address, and the picker says so). Shown only to owners who have added a domain.
import { inputClass } from "./fields.tsx";

type Props = {
  domain: string;
  domains: Array<{ hostname: string; serving: boolean }>;
  instanceHost: string;
  onDomain: (next: string) => void;
};

export function DomainField({ domain, domains, instanceHost, onDomain }: Props) {
  if (domains.length === 0) return null;
  const waiting = domains.some((d) => d.hostname === domain && !d.serving);
  return (
    <div>
      <label htmlFor="link-domain" className="block text-sm font-medium">
        Domain
      </label>
      <select
        id="link-domain"
        value={domain}
        onChange={(event) => onDomain((event.target as HTMLSelectElement).value)}
        className={inputClass(false)}
      >
        <option value="">{instanceHost} (default)</option>
        {domains.map(({ hostname, serving }) => (
          <option key={hostname} value={hostname}>
            {serving ? hostname : `${hostname} (not verified yet)`}
          </option>
        ))}
      </select>
      {waiting && (
        <p className="mt-1 text-sm text-amber-800" data-testid="domain-waiting">
          {`Waiting for ${domain} to be verified: until then this link is shared and copied at its ${instanceHost} address.`}
        </p>
      )}
    </div>
  );
}
