/** The app shell: the store for everything below, the error banner, and the page the URL asks for. */
import { StoreProvider } from '../notebook/store/context';
import { ErrorBanner } from './ErrorBanner';
import { HomePage } from './HomePage';
import { IncomingLinkPage } from './IncomingLinkPage';
import { NotebookPage } from './NotebookPage';
import { useRoute } from './routing';
import { appStore } from './services';

export function App() {
  const route = useRoute();
  return (
    <StoreProvider store={appStore}>
      <ErrorBanner />
      {route.page === 'notebook' ? (
        <NotebookPage key={route.notebookId} notebookId={route.notebookId} />
      ) : route.page === 'incoming' ? (
        <IncomingLinkPage key={route.key} link={route.link} linkKey={route.key} />
      ) : (
        <HomePage />
      )}
    </StoreProvider>
  );
}
