/** The app shell: the store for everything below, and the page the URL asks for. */
import { StoreProvider } from '../notebook/store/context';
import { HomePage } from './HomePage';
import { NotebookPage } from './NotebookPage';
import { useRoute } from './routing';
import { appStore } from './services';

export function App() {
  const route = useRoute();
  return (
    <StoreProvider store={appStore}>
      {route.page === 'notebook' ? (
        <NotebookPage key={route.notebookId} notebookId={route.notebookId} />
      ) : (
        <HomePage />
      )}
    </StoreProvider>
  );
}
