"""Soak test of `roots serve` over loopback: for a bounded time, scripted
players open tables and play them to their end (and answer the
questionnaire), while idle clients hold connections open and say nothing,
slow clients send heads and bodies a byte at a time, and a guesser tries
random keys. Reports the server's memory, descriptors, threads and the
latency of a move at the start and at the end, and fails (exit 1) when what
it holds grows or a client sees what it should not.

Usage: python3 scripts/serve-soak.py ROOTS [--seconds 600] [--players 8]
                                           [--idle 40] [--slow 6] [--window 30]
Loopback only: the server listens on 127.0.0.1; the players come from
127.0.0.1, the idle and slow clients from 127.0.0.3 and the guesser from
127.0.0.2, so that the guesser's 429s (per address) do not slow the players.
"""
import argparse, json, os, random, re, shutil, socket, subprocess, sys, tempfile, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("roots")
ap.add_argument("--seconds", type=float, default=600)
ap.add_argument("--players", type=int, default=8, help="tables played at once")
ap.add_argument("--idle", type=int, default=40, help="idle connections held")
ap.add_argument("--slow", type=int, default=6, help="slow clients")
ap.add_argument("--window", type=float, default=30, help="seconds measured at the start and at the end")
ap.add_argument("--head-timeout", type=float, default=2)
ap.add_argument("--variant", default="sprout-r-out")
a = ap.parse_args()

tmp = tempfile.mkdtemp(prefix="roots-soak-")
srv = subprocess.Popen(
    [a.roots, "serve", "--port", "0", "--dir", tmp,
     "--head-timeout", str(a.head_timeout), "--body-timeout", str(a.head_timeout)],
    stdout=subprocess.PIPE, text=True)
host = port = None
while host is None:
    line = srv.stdout.readline()
    if not line:
        sys.exit("the server did not start")
    m = re.search(r"http://127\.0\.0\.1:(\d+)/\?host=(\w+)", line)
    if m:
        port, host = int(m.group(1)), m.group(2)
threading.Thread(target=lambda: [None for _ in srv.stdout], daemon=True).start()

start = time.monotonic()
stop_at = start + a.seconds
lock = threading.Lock()
problems = []
counts = {"moves": 0, "tables": 0, "answers": 0, "idle_closed": 0, "slow_dropped": 0,
          "guesses": 0, "guesses_429": 0, "retried_429": 0}
lat = []  # (time since start, seconds) of each move's POST


def bump(k, n=1):
    with lock:
        counts[k] += n


def problem(what):
    with lock:
        if len(problems) < 20:
            problems.append(what)


def http(method, path, key=None, body=None, source="127.0.0.1", timeout=30):
    """One request on a fresh connection (Connection: close): status, JSON."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if key:
            head += f"X-Roots-Key: {key}\r\n"
        if method == "POST":
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        s.sendall(head.encode() + b"\r\n" + data)
        chunks = []
        while True:
            c = s.recv(65536)
            if not c:
                break
            chunks.append(c)
    finally:
        s.close()
    raw = b"".join(chunks).decode("utf-8", "replace")
    code = int(raw.split(" ", 2)[1]) if raw.startswith("HTTP/") else 0
    text = raw.split("\r\n\r\n", 1)[1] if "\r\n\r\n" in raw else ""
    try:
        return code, json.loads(text)
    except ValueError:
        return code, text


def patient(method, path, key=None, body=None):
    while True:
        code, v = http(method, path, key, body)
        if code != 429:
            return code, v
        bump("retried_429")
        time.sleep(0.2)


def player(n):
    """Open a table, play both seats to the end, answer, and again."""
    seed = n * 100000
    while time.monotonic() < stop_at:
        seed += 1
        code, t = patient("POST", "/api/tables", host,
                          {"variant": a.variant, "players": ["human", "human"], "seed": seed})
        if code != 201:
            problem(f"open: {code} {t}")
            return
        bump("tables")
        tid = t["id"]
        keys = [re.search(r"k=(\w+)", s["link"]).group(1) for s in t["seats"]]
        while time.monotonic() < stop_at:
            code, v = patient("GET", f"/api/t/{tid}", keys[0])
            if code != 200:
                problem(f"view: {code} {v}")
                return
            if v["outcome"] or v["stopped"]:
                for k in keys:
                    code, r = patient("POST", f"/api/t/{tid}/feedback", k,
                                      {"fun": 4, "fairness": 3, "length": "right"})
                    if code == 200:
                        bump("answers")
                    else:
                        problem(f"answer: {code} {r}")
                break
            if v["next"] != "decide":
                time.sleep(0.05)
                continue
            k = keys[v["due"] - 1]
            code, m = patient("GET", f"/api/t/{tid}", k)
            if not m.get("mine"):
                continue
            # The latency of the POST that plays the move (a 429 before it,
            # from the key's request budget, is counted apart).
            while True:
                t0 = time.monotonic()
                code, r = http("POST", f"/api/t/{tid}/act", k, {"action": m["moves"][0]["text"]})
                t1 = time.monotonic()
                if code != 429:
                    break
                bump("retried_429")
                time.sleep(0.2)
            if code != 200:
                problem(f"move: {code} {r}")
                return
            with lock:
                lat.append((t1 - start, t1 - t0))
                counts["moves"] += 1
            time.sleep(random.uniform(0.0, 0.05))


def idle():
    """Hold a.idle connections that say nothing; open another for each the
    server closes (it must, after --head-timeout)."""
    socks = []
    while time.monotonic() < stop_at:
        while len(socks) < a.idle:
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.3", 0))
                s.setblocking(False)
                socks.append((s, time.monotonic()))
            except OSError as e:
                problem(f"idle connect: {e}")
                time.sleep(0.5)
                break
        time.sleep(0.5)
        kept = []
        for s, since in socks:
            try:
                closed = s.recv(1) == b""
            except BlockingIOError:
                closed = False
            except OSError:
                closed = True
            if closed:
                s.close()
                bump("idle_closed")
            elif time.monotonic() - since > a.head_timeout + 5:
                problem(f"an idle connection open for {time.monotonic() - since:.0f} s")
                s.close()
            else:
                kept.append((s, since))
        socks = kept
    for s, _ in socks:
        s.close()


def slow(n):
    """Send a head (or a body) a byte every half second: dropped in time."""
    while time.monotonic() < stop_at:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=a.head_timeout + 10,
                                         source_address=("127.0.0.3", 0))
        except OSError as e:
            problem(f"slow connect: {e}")
            time.sleep(1)
            continue
        if n % 2:
            payload = b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 1000
        else:
            s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n")
            payload = b"{" * 500
        t0 = time.monotonic()
        dropped = False
        for b in payload:
            try:
                s.sendall(bytes([b]))
                s.settimeout(0.5)
                if s.recv(4096) == b"":
                    dropped = True
                    break
                dropped = True  # an answer (408): dropped with a word
                break
            except socket.timeout:
                pass
            except OSError:
                dropped = True
                break
            if time.monotonic() > stop_at:
                break
        took = time.monotonic() - t0
        s.close()
        if dropped:
            bump("slow_dropped")
            if took > a.head_timeout + 3:
                problem(f"a slow client held on for {took:.1f} s")


def guesser():
    while time.monotonic() < stop_at:
        key = "%032x" % random.getrandbits(128)
        try:
            code, _ = http("GET", "/api/tables", key, source="127.0.0.2")
        except OSError:
            continue
        bump("guesses")
        if code == 429:
            bump("guesses_429")
        elif code != 403:
            problem(f"a guessed key got {code}")
        time.sleep(0.02)


def proc(field):
    for l in open(f"/proc/{srv.pid}/status"):
        if l.startswith(field):
            return int(l.split()[1])
    return 0


samples = []  # (t, rss KiB, fds, threads)


def sampler():
    while time.monotonic() < stop_at + 1:
        try:
            samples.append((time.monotonic() - start, proc("VmRSS:"), len(os.listdir(f"/proc/{srv.pid}/fd")), proc("Threads:")))
        except OSError:
            return
        time.sleep(1)


threads = [threading.Thread(target=player, args=(i,)) for i in range(a.players)]
threads += [threading.Thread(target=idle), threading.Thread(target=guesser), threading.Thread(target=sampler)]
threads += [threading.Thread(target=slow, args=(i,)) for i in range(a.slow)]
for t in threads:
    t.daemon = True
    t.start()
for t in threads:
    t.join(timeout=max(0, stop_at - time.monotonic()) + 30)
# Settle: the last connections close within the head timeout.
time.sleep(a.head_timeout + 1)
settled_fds = len(os.listdir(f"/proc/{srv.pid}/fd"))
settled_rss = proc("VmRSS:")
peak = proc("VmHWM:")
srv.terminate()
code = srv.wait(timeout=30)
shutil.rmtree(tmp, ignore_errors=True)


def window(lo, hi):
    xs = sorted(d for t, d in lat if lo <= t < hi)
    ss = [s for s in samples if lo <= s[0] < hi]
    if not xs or not ss:
        return None
    q = lambda p: xs[min(len(xs) - 1, int(p * (len(xs) - 1)))] * 1000
    return {"moves": len(xs), "p50": q(0.5), "p99": q(0.99), "max": xs[-1] * 1000,
            "rss": max(s[1] for s in ss) / 1024, "fds": max(s[2] for s in ss), "threads": max(s[3] for s in ss)}


w = min(a.window, a.seconds / 3)
first, last = window(0, w), window(a.seconds - w, a.seconds)
print(f"roots serve soak: {a.seconds:.0f} s, {a.players} players' tables at once, {a.idle} idle and {a.slow} slow clients, a guesser")
print(f"  {counts['tables']} tables, {counts['moves']} moves, {counts['answers']} answers; "
      f"{counts['idle_closed']} idle connections closed by the server, {counts['slow_dropped']} slow clients dropped; "
      f"{counts['guesses']} guesses, {counts['guesses_429']} answered 429; players slowed by 429 {counts['retried_429']} times")
for name, x in (("start", first), ("end", last)):
    if x:
        print(f"  {name:5} ({w:.0f} s): {x['moves']} moves, latency p50 {x['p50']:.1f} ms, p99 {x['p99']:.1f} ms, max {x['max']:.1f} ms; "
              f"RSS {x['rss']:.1f} MiB, {x['fds']} descriptors, {x['threads']} threads")
print(f"  after the clients stopped: RSS {settled_rss / 1024:.1f} MiB (peak {peak / 1024:.1f} MiB), {settled_fds} descriptors; "
      f"SIGTERM: exit {code}")
if not first or not last:
    problems.append("no moves measured at the start or the end")
else:
    # Every idle and slow connection held at the end is closed once they
    # stop: the descriptors come back to what a server with no clients holds
    # (its tables' records stay open, one each).
    if settled_fds > samples[0][2] + counts["tables"] + 8:
        problems.append(f"descriptors: {samples[0][2]} at start, {settled_fds} once the clients stopped, for {counts['tables']} tables")
    # The server keeps every table it opened (finished ones too, up to
    # 2,000) in memory: about 210 KiB each on the 10-minute run. More than
    # 512 KiB a table is a leak.
    if last["rss"] > first["rss"] + 64 + counts["tables"] * 0.5:
        problems.append(f"memory grew: {first['rss']:.1f} MiB at the start, {last['rss']:.1f} MiB at the end, for {counts['tables']} tables")
if counts["idle_closed"] == 0 or counts["slow_dropped"] == 0:
    problems.append("no idle or slow client was dropped")
if counts["guesses"] > 40 and counts["guesses_429"] == 0:
    problems.append("the guesser never got 429")
if code != 143:
    problems.append(f"SIGTERM: exit {code}, expected 143")
for p in problems:
    print("problem:", p)
sys.exit(1 if problems else 0)
