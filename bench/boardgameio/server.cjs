// boardgame.io 0.50.2's server with the Ur game, on PORT (default 8000), matches in memory
// (its default store: nothing is written to disk, unlike madang's rooms).
const { Server, Origins } = require('boardgame.io/server');
const { Ur } = require('./ur.cjs');

const server = Server({ games: [Ur], origins: [Origins.LOCALHOST, /.*/] });
const port = Number(process.env.PORT ?? 8000);
server.run(port, () => console.log(`listening on ${port}`));
// Run by load.cjs with a pipe as stdin: when that closes, the run is gone, however it ended.
if (!process.stdin.isTTY) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
