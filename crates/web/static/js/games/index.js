// The client's games registry: each game's module by its record name. The only shared place
// that names the games; everything a game offers comes from the server's catalogue.

import ur from './ur.js';
import yut from './yut.js';
import ludo from './ludo.js';
import dicePoker from './dice-poker.js';

/** @type {Record<string, import('../app.js').GameModule>} */
export const MODULES = { ur, yut, ludo, 'dice-poker': dicePoker };
