-- Several `madang serve` nodes on one PostgreSQL (issue 21; docs/server.md, "Running several
-- nodes"), PostgreSQL only: a single node on SQLite has none of this.
--
-- `cluster_nodes`: one row per running node process (a restarted process is a new node): the
-- address other nodes forward to, the key of the advisory lock its own session holds while it
-- lives, and `expires`, renewed by its heartbeat. A node is alive while both hold
-- (`madang_node_alive`): a killed process's session ends and frees its lock at once; a paused
-- or cut-off node stops renewing and expires.
--
-- `leases`: the owner of each game (`game:<id>`) and room (`room:<code>`) held in some node's
-- memory. A live node takes a lease that is free or whose owner is not alive, bumping `epoch`;
-- every write for a game or room checks, in its own transaction and under a share lock of the
-- lease row, that the writer still holds the lease at the epoch it took (fencing).
--
-- `cluster_settings`: what every node must share (the cookie signing key, the secret that
-- marks a request one node forwarded to another).
--
-- `rooms.listing`: a public lobby's entry of `GET /api/rooms`, written by its owner and
-- announced on the channel `madang_rooms` (LISTEN/NOTIFY) so that every node lists it.

CREATE TABLE cluster_nodes (
    id TEXT PRIMARY KEY NOT NULL,
    url TEXT NOT NULL,
    lock_key INTEGER NOT NULL,
    started BIGINT NOT NULL,
    expires BIGINT NOT NULL
);

CREATE SEQUENCE cluster_lock_keys MINVALUE 1 MAXVALUE 2147483647 CYCLE;

CREATE TABLE leases (
    key TEXT PRIMARY KEY NOT NULL,
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    since BIGINT NOT NULL
);
CREATE INDEX leases_by_node ON leases (node);

CREATE TABLE cluster_settings (
    name TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

ALTER TABLE rooms ADD COLUMN listing TEXT;

-- The database's clock in ms since the epoch: every node's lease arithmetic uses this one
-- clock, so the nodes' own clocks may disagree.
CREATE FUNCTION madang_now_ms() RETURNS BIGINT LANGUAGE sql VOLATILE AS $$
    SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT
$$;

-- Whether the node with this id lives: its heartbeat is recent and its session holds its
-- advisory lock (class 28001, the node's lock_key).
CREATE FUNCTION madang_node_alive(node_id TEXT) RETURNS BOOLEAN LANGUAGE sql VOLATILE AS $$
    SELECT EXISTS (
        SELECT 1 FROM cluster_nodes n
        JOIN pg_locks l ON l.locktype = 'advisory' AND l.classid::TEXT = '28001'
            AND l.objid::TEXT = n.lock_key::TEXT AND l.objsubid = 2 AND l.granted
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        WHERE n.id = node_id AND n.expires > madang_now_ms()
    )
$$;
