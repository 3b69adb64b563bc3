// A dashboard row's short URL, which follows a new version made from the row's card panel (CardFetches).
import { useShortUrl } from "../src/client/link-version.ts";

export type ShortAddressProps = { id: number; shortUrl: string };

export default function ShortAddress({ id, shortUrl }: ShortAddressProps) {
  return (
    <p className="truncate text-sm text-indigo-700" data-testid="short-address">
      {useShortUrl(id, shortUrl)}
    </p>
  );
}
