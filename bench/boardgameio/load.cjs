// A closed-loop load on boardgame.io's server, as madang's `rooms_load` puts on its rooms
// (issue 20, measured side by side): N two-player Ur matches, each player a boardgame.io client
// on its own socket.io connection, one action in flight per match, random legal actions (a
// roll, then a piece), the next match on the same connections whenever one ends. The server
// runs as a child process so its CPU time (/proc/PID/stat, every thread) is its own.
//
//   node load.cjs --games 100 --seconds 15 --warmup 3 [--spares 3] [--port 8123]
//
// Every match is created and joined through the lobby API before the load starts: N to begin
// with and `--spares` more per match slot for the matches that follow (a slot that runs out
// creates one while the load runs, and the run says how many it made), so the window measures
// play, not the lobby. A client moves to its next match with `updateCredentials` and
// `updateMatchID` on its open connection, as a madang room's rematch keeps its WebSockets.
//
// Prints actions/s over the window, the server's CPU per action and use, the generator's own
// CPU use, the server's peak memory (VmHWM) and the action round trip (send → the answer's
// arrival at the client that acts next, or for a match's last action at the first client to see
// it end): p50, p90, p99, max.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Ur, legalPieces } = require('./ur.cjs');

const known = ['games', 'seconds', 'warmup', 'spares', 'port'];
/** The flags given, by name: `--name value` pairs, each name once. */
const given = new Map();
for (let i = 2; i < process.argv.length; i += 2) {
  const flag = process.argv[i];
  const name = flag.startsWith('--') ? flag.slice(2) : '';
  if (!known.includes(name)) {
    console.error(`unknown argument ${flag}: the flags are ${known.map((k) => `--${k}`).join(', ')}, each with a value`);
    process.exit(2);
  }
  if (given.has(name)) {
    console.error(`--${name} is given twice`);
    process.exit(2);
  }
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) {
    console.error(`--${name} needs a value`);
    process.exit(2);
  }
  given.set(name, value);
}

/** The value of `--name`: a whole number from `least` to `most` (the default when absent). */
function option(name, fallback, least, most = Number.MAX_SAFE_INTEGER) {
  const text = given.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || value < least || value > most) {
    console.error(`--${name} takes a whole number from ${least} to ${most}, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

const games = option('games', 100, 1, 100000);
const seconds = option('seconds', 15, 1, 86400);
const warmup = option('warmup', 3, 0, 86400);
const spares = option('spares', 3, 0, 1000);
const port = option('port', 8123, 1, 65535);
const base = `http://localhost:${port}`;
const ticks = 100; // clock ticks per second (`getconf CLK_TCK` on Linux)

function cpuSeconds(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
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
let createdDuringLoad = 0;
/** The match slots that had an action answered during the window. */
const moving = new Set();
/** Per match slot: when (ms) it last had an action answered. */
const lastAnswer = [];
// Play starts when every client has connected and synced its first match (2000 connections
// opening while the first matches play starve each other).
let started = false;
let connected = 0;
const starters = [];
let everyoneConnected = () => {};
let inPlay = 0;
const inPlaySamples = [];
const roundTrips = [];

/** Counts an action of match slot `slot` answered at `now` (ms) after `roundTrip` ms, in the window. */
function recordAnswer(slot, roundTrip, now) {
  if (!measuring) return;
  actions += 1;
  roundTrips.push(roundTrip);
  moving.add(slot);
  lastAnswer[slot] = now;
}

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

/**
 * One match slot: two clients play `matches[0]`, then each next match on the same connections,
 * until `until()` (ms, `performance.now()`).
 */
async function slotLoop(slot, matches, until) {
  const match = matches.shift();
  // Per client: whether it shows the current match yet. After a switch a client still holds
  // the finished match (its state is over) until the next one's first state arrives.
  const live = [false, false];
  // Per client: it has seen the current match end.
  const over = [false, false];
  const play = { sentAt: 0, sentState: -1, done: false, resolve: () => {} };
  const clients = ['0', '1'].map((playerID, i) =>
    Client({ game: Ur, multiplayer: SocketIO({ server: base, socketOpts: { transports: ['websocket'] } }), matchID: match.matchID, playerID, credentials: match.credentials[i], debug: false }),
  );
  const handlers = clients.map((client, i) => (state) => {
      if (!state) return;
      if (!started) {
        if (!synced[i]) {
          synced[i] = true;
          connected += 1;
          if (connected === 2 * games) everyoneConnected();
        }
        return;
      }
      if (!live[i]) {
        if (state.ctx.gameover) return;
        live[i] = true;
      }
      const now = performance.now();
      const answered = state._stateID > play.sentState && play.sentState >= 0;
      if (state.ctx.gameover) {
        if (!play.done) {
          if (answered) recordAnswer(slot, now - play.sentAt, now);
          play.done = true;
          if (measuring) finishedGames += 1;
        }
        // The next match starts when both clients have seen this one end: a client switched
        // earlier would show it the last state it had of this match, as if it were the next's.
        over[i] = true;
        if (over[0] && over[1]) play.resolve();
        return;
      }
      if (play.done) return;
      if (state.ctx.currentPlayer !== client.playerID || state._stateID <= play.sentState) return;
      if (answered) recordAnswer(slot, now - play.sentAt, now);
      play.sentAt = now;
      play.sentState = state._stateID;
      if (state.G.roll === null) {
        client.moves.roll();
      } else {
        const legal = legalPieces(state.G, Number(client.playerID));
        client.moves.move(legal[Math.floor(Math.random() * legal.length)]);
      }
  });
  const synced = [false, false];
  clients.forEach((client, i) => client.subscribe(handlers[i]));
  starters.push(() => clients.forEach((client, i) => handlers[i](client.getState())));
  let ended = new Promise((resolve) => (play.resolve = resolve));
  inPlay += 1;
  clients.forEach((client) => client.start());
  await ended;
  inPlay -= 1;
  while (performance.now() < until()) {
    let next = matches.shift();
    if (!next) {
      next = await createMatch(slot);
      createdDuringLoad += 1;
    }
    Object.assign(play, { sentAt: 0, sentState: -1, done: false });
    live.fill(false);
    over.fill(false);
    ended = new Promise((resolve) => (play.resolve = resolve));
    inPlay += 1;
    clients.forEach((client, i) => {
      client.updateCredentials(next.credentials[i]);
      client.updateMatchID(next.matchID);
    });
    await ended;
    inPlay -= 1;
  }
  clients.forEach((client) => client.stop());
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.floor((p / 100) * (sorted.length - 1))] : NaN;
}

let server = null;
let serverListening = false;
// The server goes with the run however it ends: an error, a signal (said, with the usual
// 128 + signal number), a closed pipe; and a server whose stdin closes (the run killed with
// SIGKILL) ends itself (`server.cjs`).
process.on('exit', () => server?.kill());
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1], ['SIGPIPE', 13]]) {
  process.on(signal, () => {
    if (signal !== 'SIGPIPE') console.error(`load.cjs: interrupted by ${signal}; the server is stopped`);
    process.exit(128 + number);
  });
}

/** Ends the run with `message` (exit status 1). */
function fail(message) {
  console.error(`load.cjs: ${message}`);
  process.exit(1);
}

async function main() {
  server = spawn(process.execPath, [path.join(__dirname, 'server.cjs')], { env: { ...process.env, PORT: String(port) }, stdio: ['pipe', 'pipe', 'inherit'] });
  // A server that ends before the run does (the port taken, a crash) ends the run.
  server.on('exit', (code, signal) =>
    fail(`the boardgame.io server on port ${port} exited (${signal ?? code}) ${serverListening ? 'during the run' : 'before listening'}`),
  );
  await new Promise((resolve) => server.stdout.on('data', (d) => d.toString().includes('listening') && resolve()));
  serverListening = true;
  // Every match the run will need is set up first, 50 at a time.
  const perSlot = Array.from({ length: games }, () => []);
  const total = games * (1 + spares);
  for (let made = 0; made < total; made += 50) {
    const batch = Array.from({ length: Math.min(50, total - made) }, (_, k) => createMatch((made + k) % games));
    (await Promise.all(batch)).forEach((match, k) => perSlot[(made + k) % games].push(match));
  }
  const allConnected = new Promise((resolve) => (everyoneConnected = resolve));
  const players = perSlot.map((matches, slot) => slotLoop(slot, matches, () => end));
  let failure = null;
  for (const player of players) player.catch((error) => (failure ??= error));
  // Every client syncs within a minute, or the run says how many did.
  const deadline = setTimeout(() => fail(`${connected} of ${2 * games} clients connected and synced within 60 s`), 60000);
  await allConnected;
  clearTimeout(deadline);
  started = true;
  const end = performance.now() + (warmup + seconds) * 1000;
  starters.forEach((start) => start());
  await new Promise((r) => setTimeout(r, warmup * 1000));
  measuring = true;
  createdDuringLoad = 0;
  const sampler = setInterval(() => inPlaySamples.push(inPlay), 100);
  const serverStart = cpuSeconds(server.pid);
  const ownStart = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  clearInterval(sampler);
  if (failure) throw failure;
  const stop = performance.now();
  const window = (stop - t0) / 1000;
  // A slot with nothing answered in its last second while others play has stalled.
  const idle = Array.from({ length: games }, (_, slot) => slot).filter((slot) => !(stop - (lastAnswer[slot] ?? 0) < 1000)).length;
  const serverCpu = cpuSeconds(server.pid) - serverStart;
  const own = process.cpuUsage(ownStart);
  const sorted = roundTrips.slice().sort((a, b) => a - b);
  const playing = inPlaySamples.slice().sort((a, b) => a - b);
  console.log(`boardgame.io 0.50.2, ${games} two-player Ur matches, closed loop, ${window.toFixed(1)} s window after ${warmup} s`);
  console.log(`matches in play over the window (sampled every 100 ms): min ${playing[0]}, median ${percentile(playing, 50)} of ${games}; ${moving.size} had an action answered, ${idle} none in the last second; ${finishedGames} finished, ${createdDuringLoad} created during the window (spares ran out)`);
  console.log(`actions/s ${(actions / window).toFixed(0)} (${actions} actions)`);
  console.log(`server CPU per action ${((serverCpu / actions) * 1000).toFixed(4)} ms, server CPU use ${((100 * serverCpu) / window).toFixed(0)} %, generator CPU use ${((100 * (own.user + own.system)) / 1e6 / window).toFixed(0)} %`);
  console.log(`server peak memory: ${peakMemory(server.pid)}`);
  console.log(`action round trip: p50 ${percentile(sorted, 50).toFixed(2)} ms, p90 ${percentile(sorted, 90).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${sorted.length ? sorted[sorted.length - 1].toFixed(2) : NaN} ms`);
  // The matches still in play end with the server: their failures are not the run's.
  for (const player of players) player.catch(() => {});
  process.exit(0);
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
