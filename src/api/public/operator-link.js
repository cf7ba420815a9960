// Loaded first on the operator's pages, before the translations (whose loading the page modules wait for): an
// operator link's ?token= is kept in this browser as soon as the page is parsed, so a page closed or left at once
// still leaves this browser signed in.
import { keepTokenFromLink } from './operator-page.js';

keepTokenFromLink();
