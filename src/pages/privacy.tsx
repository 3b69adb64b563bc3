// /privacy: what LinkPrev computes and keeps about the people who open its short links and about its users, and for
// how long (decisions 0010 and 0011; VIEW_RETENTION_DAYS).
export function PrivacyPage({ viewRetentionDays }: { viewRetentionDays: number }) {
  const period = viewRetentionDays === 0 ? "for as long as the account exists" : `for ${viewRetentionDays} days`;
  return (
    <section className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold">Privacy</h1>
      <h2 className="text-xl font-semibold">People who open a short link</h2>
      <p>
        When someone opens a short link, we record the view for the link's owner: the time, whether it was a person or a
        crawler (and which platform's), the page that linked to it, the browser's User-Agent, and whether it came
        through the link's QR code. No cookie is set and nothing runs in the visitor's browser.
      </p>
      <ul className="list-disc space-y-2 pl-6">
        <li>
          <strong>Network address.</strong> Each view is stored with the address shortened to its network (IPv4 /24,
          IPv6 /48). The full address is never written to disk.
        </li>
        <li>
          <strong>Daily unique visitors.</strong> To count how many different people opened a link on a day, the server
          computes a one-way hash (SHA-256) of a random value, the link, the full address and the User-Agent. The random
          value exists only in the server's memory and is replaced at midnight UTC, so a hash cannot be recomputed or
          matched to anyone afterwards. The day's hashes are kept until midnight UTC, then deleted; only the number of
          visitors for the link and day stays, as part of the link's statistics. Visitors are counted per day and per
          link: the same person on two days, or on two links, counts as two visitors, and the owner sees the daily
          counts summed. Crawlers are never counted as visitors.
        </li>
        <li>
          <strong>QR code scans.</strong> A link's QR code adds <code>?qr=1</code> to its address; a visit carrying it
          is counted as a scan. Nothing of it is passed on to the link's destination.
        </li>
      </ul>
      <p data-testid="view-retention">
        {`These raw view records are kept ${period}, then deleted. Only the per-day counts of people, crawlers, visitors and scans per link stay.`}
      </p>
      <p>
        The counts are statistics for the link's owner only, never combined across links, owners or other sites, and
        they are deleted with the owner's account.
      </p>
      <h2 className="text-xl font-semibold">Users</h2>
      <p>
        Your dashboard lets you download all your data (as JSON, and your links as CSV) and delete your account.
        Deleting it cancels the subscription at once and removes your profile, links, views, the day's visitor hashes of
        your links, images, sessions and tokens. Payment records are kept as accounting law requires, without your name
        or e-mail address.
      </p>
      <p data-testid="retired-addresses">
        Your short links' addresses are never given to anyone else: when an account is deleted, its user name in the
        short URLs (the part after <code>/go/</code>) is retired for good, so that links and printed QR codes that
        pointed to you cannot be taken over. We keep only that name, in a list of retired names, and nothing else of the
        account; its short URLs answer &ldquo;410 Gone&rdquo; from then on.
      </p>
    </section>
  );
}
