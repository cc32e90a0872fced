// A closed-loop load on boardgame.io's server, as madang's `rooms_load` puts on its rooms
// (issue 20, measured side by side): N two-player Ur matches, each player a boardgame.io client
// on its own socket.io connection, one action in flight per match, random legal actions (a
// roll, then a piece), a new match whenever one ends. The server runs as a child process so its
// CPU time (/proc/PID/stat, every thread) is its own.
//
//   node load.cjs --games 100 --seconds 15 --warmup 3 [--port 8123]
//
// Every match is created and joined through the lobby API before the load starts. Prints
// actions/s over the window, the server's CPU per action and use, the generator's own
// CPU use, the server's peak memory (VmHWM) and the action round trip (send → the state that
// answers it, at the acting client): p50, p90, p99, max.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Ur, legalPieces } = require('./ur.cjs');

const known = ['games', 'seconds', 'warmup', 'port'];
for (let i = 2; i < process.argv.length; i += 2) {
  const flag = process.argv[i];
  if (!flag.startsWith('--') || !known.includes(flag.slice(2))) {
    console.error(`unknown argument ${flag}: the flags are ${known.map((k) => `--${k}`).join(', ')}, each with a value`);
    process.exit(2);
  }
}

/** The value of `--name`: a whole number at least `least` (the default when the flag is absent). */
function option(name, fallback, least) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const text = process.argv[i + 1];
  const value = Number(text);
  if (text === undefined || !/^[0-9]+$/.test(text) || value < least) {
    console.error(`--${name} takes a whole number of at least ${least}, got ${text === undefined ? 'nothing' : JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

const games = option('games', 100, 1);
const seconds = option('seconds', 15, 1);
const warmup = option('warmup', 3, 0);
const port = option('port', 8123, 1);
if (port > 65535) {
  console.error(`--port takes a TCP port, 1 to 65535, got ${port}`);
  process.exit(2);
}
const base = `http://localhost:${port}`;
const ticks = 100; // clock ticks per second (`getconf CLK_TCK` on Linux)

function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticks; // utime, stime
}

function peakMemory(pid) {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM'));
  return line ? line.replace(/\s+/g, ' ') : 'VmHWM unknown';
}

async function post(url, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

let measuring = false;
let actions = 0;
let finishedGames = 0;
const roundTrips = [];

/** A new match with both seats taken: its id and each player's credentials. */
async function createMatch(slot) {
  const { matchID } = await post(`${base}/games/ur/create`, { numPlayers: 2 });
  const credentials = [];
  for (const playerID of ['0', '1']) {
    const { playerCredentials } = await post(`${base}/games/ur/${matchID}/join`, { playerID, playerName: `p${slot}-${playerID}` });
    credentials.push(playerCredentials);
  }
  return { matchID, credentials };
}

/** One match: two clients playing random legal actions until it ends. */
async function play({ matchID, credentials }) {
  const clients = ['0', '1'].map((playerID, i) =>
    Client({ game: Ur, multiplayer: SocketIO({ server: base }), matchID, playerID, credentials: credentials[i], debug: false }),
  );
  let sentAt = 0;
  let sentState = -1;
  let done = false;
  await new Promise((resolve) => {
    for (const client of clients) {
      client.subscribe((state) => {
        if (!state || done) return;
        if (state.ctx.gameover) {
          done = true;
          if (measuring) finishedGames += 1;
          resolve();
          return;
        }
        if (state.ctx.currentPlayer !== client.playerID || state._stateID <= sentState) return;
        const now = performance.now();
        if (sentState >= 0 && measuring) {
          actions += 1;
          roundTrips.push(now - sentAt);
        }
        sentAt = now;
        sentState = state._stateID;
        if (state.G.roll === null) {
          client.moves.roll();
        } else {
          const legal = legalPieces(state.G, Number(client.playerID));
          client.moves.move(legal[Math.floor(Math.random() * legal.length)]);
        }
      });
      client.start();
    }
  });
  for (const client of clients) client.stop();
}

/** Plays `first`, then new matches (a rematch whenever one ends) until `until`. */
async function loop(slot, first, until) {
  let match = first;
  while (performance.now() < until) {
    await play(match);
    match = await createMatch(slot);
  }
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

async function main() {
  const server = spawn(process.execPath, [path.join(__dirname, 'server.cjs')], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    server.stdout.on('data', (d) => d.toString().includes('listening') && resolve());
    // A server that ends before it listens (the port taken or out of range) ends the run.
    server.on('exit', (code) => reject(new Error(`the boardgame.io server on port ${port} exited (${code}) before listening`)));
  });
  // Every match is set up before any is played (as `rooms_load` holds its rooms first), 50
  // at a time.
  const matches = [];
  for (let slot = 0; slot < games; slot += 50) {
    const batch = Array.from({ length: Math.min(50, games - slot) }, (_, k) => createMatch(slot + k));
    matches.push(...(await Promise.all(batch)));
  }
  const end = performance.now() + (warmup + seconds) * 1000;
  const players = matches.map((match, slot) => loop(slot, match, end));
  let failure = null;
  for (const player of players) player.catch((error) => (failure ??= error));
  await new Promise((r) => setTimeout(r, warmup * 1000));
  measuring = true;
  const serverStart = cpuSeconds(server.pid);
  const ownStart = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  if (failure) throw failure;
  const window = (performance.now() - t0) / 1000;
  const serverCpu = cpuSeconds(server.pid) - serverStart;
  const own = process.cpuUsage(ownStart);
  const sorted = roundTrips.slice().sort((a, b) => a - b);
  console.log(`boardgame.io 0.50.2, ${games} two-player Ur matches, closed loop, ${window.toFixed(1)} s window after ${warmup} s`);
  console.log(`actions/s ${(actions / window).toFixed(0)} (${actions} actions, ${finishedGames} matches finished)`);
  console.log(`server CPU per action ${((serverCpu / actions) * 1000).toFixed(4)} ms, server CPU use ${((100 * serverCpu) / window).toFixed(0)} %, generator CPU use ${((100 * (own.user + own.system)) / 1e6 / window).toFixed(0)} %`);
  console.log(`server peak memory: ${peakMemory(server.pid)}`);
  console.log(`action round trip: p50 ${percentile(sorted, 50).toFixed(2)} ms, p90 ${percentile(sorted, 90).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${sorted.length ? sorted[sorted.length - 1].toFixed(2) : NaN} ms`);
  // The matches still in play end with the server: their failures are not the run's.
  for (const player of players) player.catch(() => {});
  server.kill();
  process.exit(0);
}

main().catch((error) => {
  console.error(`load.cjs: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
