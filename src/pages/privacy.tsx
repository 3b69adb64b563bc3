// /privacy: what LinkPrev keeps about visitors and users, and for how long (VIEW_RETENTION_DAYS).
export function PrivacyPage({ viewRetentionDays }: { viewRetentionDays: number }) {
  const period = viewRetentionDays === 0 ? "for as long as the account exists" : `for ${viewRetentionDays} days`;
  return (
    <section className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold">Privacy</h1>
      <h2 className="text-xl font-semibold">Visitors of short links</h2>
      <p>
        When someone opens a short link, we record the view for the link's owner: the time, the address shortened to
        its network (IPv4 /24, IPv6 /48: the full address is never stored), the browser's User-Agent, the referring
        page and, for link-preview crawlers, the platform.
      </p>
      <p data-testid="view-retention">
        {`These raw view records are kept ${period}, then deleted. Only the per-day counts of people and crawlers per link stay.`}
      </p>
      <h2 className="text-xl font-semibold">Users</h2>
      <p>
        Your dashboard lets you download all your data (as JSON, and your links as CSV) and delete your account. Deleting
        it cancels the subscription at once and removes your profile, links, views, images, sessions and tokens. Payment
        records are kept as accounting law requires, without your name or e-mail address.
      </p>
    </section>
  );
}
