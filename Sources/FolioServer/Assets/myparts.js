// "My parts": the page is the server's; this only shows who is logged in.
import { showWho } from './who.js';

showWho();
