// The editor's domain picker: the instance host (every link's /go address) or one of the owner's custom domains,
// where the link is then shared as https://domain/slug. Shown only to owners who have added a domain.
import { inputClass } from "./fields.tsx";

export function DomainField({ domain, domains, instanceHost, onDomain }: { domain: string; domains: string[]; instanceHost: string; onDomain: (next: string) => void }) {
  if (domains.length === 0) return null;
  return (
    <div>
      <label htmlFor="link-domain" className="block text-sm font-medium">
        Domain
      </label>
      <select id="link-domain" value={domain} onChange={(event) => onDomain((event.target as HTMLSelectElement).value)} className={inputClass(false)}>
        <option value="">{instanceHost} (default)</option>
        {domains.map((hostname) => (
          <option key={hostname} value={hostname}>
            {hostname}
          </option>
        ))}
      </select>
    </div>
  );
}
