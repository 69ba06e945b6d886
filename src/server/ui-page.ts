// The dashboard page's routes. Run from source, Bun bundles ui/index.html itself when the page is
// first asked for. In the binary, build.ts replaces this module by the files it bundled once for
// the browser, served as they are (builtUi in build.ts, embeddedPage in ui-embedded.ts): bundled a
// second time, with the server, the page's chunks would be renamed behind the names its script
// preloads.
import type { Serve } from 'bun';
import dashboard from '../../ui/index.html';

/** GET only, so that other methods on / (a CORS preflight) still reach the app. Bun's route type does not list HTML bundles inside a method map, hence the cast. */
export const UI_ROUTES = { '/': { GET: dashboard } } as unknown as Serve.Routes<undefined, string>;
