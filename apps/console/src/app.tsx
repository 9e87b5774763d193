import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { onSessionEnded } from './api';
import { ErrorNotice, Loading } from './components/feedback';
import { PageHeader } from './components/page';
import { ApiKeysPage } from './pages/api-keys';
import { BookingPage } from './pages/booking';
import { BookingsPage } from './pages/bookings';
import { CustomerPage } from './pages/customer';
import { CustomersPage } from './pages/customers';
import { DeparturePage } from './pages/departure';
import { DeparturesPage } from './pages/departures';
import { IncidentsPage } from './pages/incidents';
import { MembersPage } from './pages/members';
import { ResourcesPage } from './pages/resources';
import { SecurityPage } from './pages/security';
import { SignInPage } from './pages/sign-in';
import { TodayPage } from './pages/today';
import { TourPage } from './pages/tour';
import { ToursPage } from './pages/tours';
import { WebhookPage } from './pages/webhook';
import { WebhooksPage } from './pages/webhooks';
import { roleName } from './permissions';
import { Link, navigate, useLocation } from './router';
import { replaceSession, SESSION_KEY, type Session, useSession, useSignOut } from './session';
import { type Workspace, WorkspaceContext } from './workspace';

/** The console: sign-in when signed out, else the workspace's pages in the shell. */
export function App() {
  const session = useSession();
  const notice = useSessionEnd(session.data);
  const { path } = useLocation();

  if (session.isPending) return <Loading what="Opening the console" />;
  if (session.isError) return <ErrorNotice error={session.error} />;
  if (!session.data) return <SignInPage notice={notice} />;
  const [, workspaceId] = path.split('/');
  const membership = session.data.workspaces.find((w) => w.workspaceId === workspaceId);
  if (!membership) return <Redirect session={session.data} />;
  const workspace: Workspace = { ...membership };
  // A workspace that asks this role for a second factor not yet passed answers 403 to everything
  // else: its Security page, at its own address (so turning it on does not leave the page).
  const locked = membership.twoFactorRequired && !session.data.twoFactor.passed;
  const section = path.split('/')[2];
  if (locked && section !== 'security') return <GoTo path={`/${workspace.workspaceId}/security`} />;
  return (
    <WorkspaceContext.Provider value={workspace}>
      <Shell session={session.data} workspace={workspace}>
        {section === 'security' ? (
          <SecurityPage session={session.data} required={membership.twoFactorRequired} />
        ) : (
          <WorkspacePage path={path.split('/').slice(2)} workspace={workspace} />
        )}
      </Shell>
    </WorkspaceContext.Provider>
  );
}

/** When the API says the session is over (expired, ended elsewhere): back to sign-in, saying why. */
function useSessionEnd(current: Session | null | undefined): string | undefined {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string>();
  // Said once: signed in again, the notice is done with.
  useEffect(() => {
    if (current) setNotice(undefined);
  }, [current]);
  useEffect(
    () =>
      onSessionEnded(() => {
        if (!queryClient.getQueryData(SESSION_KEY)) return;
        replaceSession(queryClient, null);
        setNotice('Your session has ended. Sign in again to continue.');
      }),
    [queryClient],
  );
  return notice;
}

/** A path without a workspace of this member: the first workspace's Today. */
function Redirect({ session }: { session: Session }) {
  const first = session.workspaces[0];
  useEffect(() => {
    if (first) navigate(`/${first.workspaceId}/today`, { replace: true });
  }, [first]);
  if (!first)
    return (
      <main className="centered">
        <PageHeader title="No workspace" />
        <p>This account is not a member of any workspace. Ask an admin to add you.</p>
      </main>
    );
  return <Loading />;
}

/** Another page of the console, in place of this address. */
function GoTo({ path }: { path: string }) {
  useEffect(() => navigate(path, { replace: true }), [path]);
  return <Loading />;
}

/** An unknown page of a workspace: its Today. */
function GoToToday({ workspaceId }: { workspaceId: string }) {
  return <GoTo path={`/${workspaceId}/today`} />;
}

const NAV: readonly { to: string; label: string; adminOnly?: boolean }[] = [
  { to: 'today', label: 'Today' },
  { to: 'departures', label: 'Departures' },
  { to: 'bookings', label: 'Bookings' },
  { to: 'tours', label: 'Tours' },
  { to: 'customers', label: 'Customers' },
  { to: 'resources', label: 'Resources' },
  { to: 'incidents', label: 'Incidents' },
  { to: 'members', label: 'Members' },
  { to: 'api-keys', label: 'API keys', adminOnly: true },
  { to: 'webhooks', label: 'Webhooks', adminOnly: true },
];

function Shell({
  session,
  workspace,
  children,
}: {
  session: Session;
  workspace: Workspace;
  children: ReactNode;
}) {
  const { path } = useLocation();
  const section = path.split('/')[2];
  const signOut = useSignOut();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">TravelOps</span>
        <WorkspaceSwitcher session={session} current={workspace} />
        <span className="who">
          {session.member.email} <span className="muted">({roleName[workspace.role]})</span>
        </span>
        <Link className="button-quiet" to={`/${workspace.workspaceId}/security`}>
          Security
        </Link>
        <button
          type="button"
          className="button-quiet"
          onClick={() => signOut.mutate()}
          disabled={signOut.isPending}
        >
          Sign out
        </button>
      </header>
      <nav className="nav" aria-label="Console">
        <ul>
          {NAV.filter((item) => !item.adminOnly || workspace.role === 'ADMIN').map((item) => (
            <li key={item.to}>
              <Link
                to={`/${workspace.workspaceId}/${item.to}`}
                aria-current={section === item.to ? 'page' : undefined}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="main">
        {children}
      </main>
    </div>
  );
}

function WorkspaceSwitcher({ session, current }: { session: Session; current: Workspace }) {
  if (session.workspaces.length < 2) return <span className="workspace-name">{current.name}</span>;
  return (
    <label className="workspace-switcher">
      <span className="visually-hidden">Workspace</span>
      <select
        value={current.workspaceId}
        onChange={(event) => navigate(`/${event.target.value}/today`)}
        aria-label="Workspace"
      >
        {session.workspaces.map((w) => (
          <option key={w.workspaceId} value={w.workspaceId}>
            {w.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function WorkspacePage({ path, workspace }: { path: string[]; workspace: Workspace }) {
  const [section, id] = path;
  switch (section) {
    case 'today':
      return <TodayPage />;
    case 'departures':
      return id ? <DeparturePage availabilityId={id} /> : <DeparturesPage />;
    case 'bookings':
      return id ? <BookingPage bookingId={id} /> : <BookingsPage />;
    case 'tours':
      return id ? <TourPage tourId={id} /> : <ToursPage />;
    case 'customers':
      return id ? <CustomerPage customerId={id} /> : <CustomersPage />;
    case 'resources':
      return <ResourcesPage />;
    case 'incidents':
      return <IncidentsPage />;
    case 'members':
      return <MembersPage />;
    case 'api-keys':
      return <ApiKeysPage />;
    case 'webhooks':
      return id ? <WebhookPage endpointId={id} /> : <WebhooksPage />;
    default:
      return <GoToToday workspaceId={workspace.workspaceId} />;
  }
}
