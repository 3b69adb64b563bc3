// The pages anyone can see.
import { LINK_SIGN_IN_LABEL, LINK_SIGN_IN_NOTE } from "../client/instance.ts";
import type { PlanListProps } from "./plan-list.tsx";
import { PlanList } from "./plan-list.tsx";

const FEATURES = [
  {
    title: "Custom content",
    text: "Choose the title, description and image that X, Facebook, LinkedIn, Slack and the rest show for your link.",
  },
  {
    title: "Analytics",
    text: "See how often your link was opened by people and fetched by bots, and which platforms drew your card.",
  },
  {
    title: "Short URLs",
    text: "Every link gets a short address to share; custom ones on the Pro and Enterprise plans.",
  },
];

export type LandingProps = PlanListProps & { googleSignIn: boolean };

/** The hero's call to action: the dashboard once signed in; else signing in, the way this instance offers it. */
function HeroAction({ signedIn, googleSignIn }: { signedIn: boolean; googleSignIn: boolean }) {
  const button = "mt-8 inline-block rounded-md bg-indigo-600 px-6 py-3 font-semibold text-white hover:bg-indigo-500";
  if (signedIn)
    return (
      <a href="/admin" className={button}>
        Go to your dashboard
      </a>
    );
  return (
    <>
      <a href="/api/auth/google" className={button}>
        {googleSignIn ? "Get Started with Google" : LINK_SIGN_IN_LABEL}
      </a>
      {!googleSignIn && <p className="mx-auto mt-3 max-w-xl text-sm text-gray-600">{LINK_SIGN_IN_NOTE}</p>}
    </>
  );
}

export function LandingPage({ googleSignIn, ...plans }: LandingProps) {
  return (
    <>
      <section className="py-12 text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Your link, your preview</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-gray-600">
          Decide what people see when you share a link on social media: your title, your description, your image.
        </p>
        <HeroAction signedIn={plans.signedIn} googleSignIn={googleSignIn} />
      </section>
      <section id="features" aria-labelledby="features-title" className="py-12">
        <h2 id="features-title" className="text-center text-2xl font-bold">
          Features
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-lg border border-gray-200 p-6">
              <h3 className="font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm text-gray-600">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section id="pricing" aria-labelledby="pricing-title" className="py-12">
        <h2 id="pricing-title" className="mb-8 text-center text-2xl font-bold">
          Pricing
        </h2>
        <PlanList {...plans} />
      </section>
    </>
  );
}

export function PricingPage(plans: PlanListProps) {
  return (
    <section>
      <h1 className="text-center text-3xl font-bold">Subscription Plans</h1>
      <p className="mt-2 mb-8 text-center text-gray-600">Choose the plan that best fits your needs</p>
      <PlanList {...plans} />
    </section>
  );
}

export function PlaceholderPage({ title }: { title: string }) {
  return (
    <section>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-4">TBD</p>
    </section>
  );
}

/** Where an account deletion ends (islands/YourData.tsx): a page that says it is done, not the landing page. */
export function AccountDeletedPage() {
  return (
    <section className="mx-auto max-w-xl py-12">
      <h1 className="text-3xl font-bold">Your account is deleted</h1>
      <p className="mt-4 text-gray-700">
        Your links, their views and your images are gone, and you are signed out. Short links you shared now answer "not
        found".
      </p>
      <p className="mt-6">
        <a href="/" className="text-indigo-700 underline">
          Back to the home page
        </a>
      </p>
    </section>
  );
}

const externalButton = "inline-block rounded-md bg-indigo-600 px-5 py-3 font-semibold text-white hover:bg-indigo-500";

export function ContactPage({ contactFormUrl, socialUrl }: { contactFormUrl: string; socialUrl: string }) {
  return (
    <section>
      <h1 className="text-3xl font-bold">Support</h1>
      <p className="mt-4 text-gray-600">
        Questions, problems or ideas? Write to us through the contact form, or find us on social media.
      </p>
      <div className="mt-6 flex flex-wrap gap-4">
        <a href={contactFormUrl} target="_blank" rel="noopener noreferrer" className={externalButton}>
          Open the contact form
        </a>
        <a href={socialUrl} target="_blank" rel="noopener noreferrer" className={externalButton}>
          Follow us
        </a>
      </div>
    </section>
  );
}
