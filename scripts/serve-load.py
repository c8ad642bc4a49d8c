"""Load on `roots serve` over loopback: 100 two-person tables played at once
to their end by scripted clients (a thread per table, first legal move,
waiting on 429). Prints move latency and the server's peak memory.
Usage: python3 scripts/serve-load.py target/debug/roots VARIANT.toml"""
import json, subprocess, sys, tempfile, time, urllib.request, urllib.error, re, threading
ROOTS, VARIANT = sys.argv[1], sys.argv[2]
p = subprocess.Popen([ROOTS,"serve",VARIANT,"--port","8476","--dir",tempfile.mkdtemp()], stdout=subprocess.PIPE, text=True)
host=None
while host is None:
    l=p.stdout.readline()
    m=re.search(r"host=(\w+)",l)
    if m: host=m.group(1)
def req(method, path, key, body=None):
    while True:
        r=urllib.request.Request("http://127.0.0.1:8476"+path, method=method, headers={"X-Roots-Key":key,"Content-Type":"application/json"}, data=None if body is None else json.dumps(body).encode())
        try:
            with urllib.request.urlopen(r) as f: return f.status, json.load(f)
        except urllib.error.HTTPError as e:
            if e.code==429: time.sleep(0.2); continue
            return e.code, json.load(e)
tables=[]
for i in range(100):
    c,t=req("POST","/api/tables",host,{"variant":VARIANT,"players":["human","human"],"seed":i})
    assert c==201,t
    tables.append((t["id"],[re.search(r"k=(\w+)",s["link"]).group(1) for s in t["seats"]]))
lat=[]; lock=threading.Lock()
def play(tid,keys):
    while True:
        c,v=req("GET",f"/api/t/{tid}",keys[0])
        if v["outcome"]: return
        k=keys[v["due"]-1]
        c,m=req("GET",f"/api/t/{tid}",k)
        t0=time.perf_counter()
        c,r=req("POST",f"/api/t/{tid}/act",k,{"action":m["moves"][0]["text"]})
        d=time.perf_counter()-t0
        assert c==200,r
        with lock: lat.append(d)
t0=time.time()
th=[threading.Thread(target=play,args=t) for t in tables]
[x.start() for x in th]; [x.join() for x in th]
wall=time.time()-t0
lat.sort()
pc=lambda q: lat[int((len(lat)-1)*q)]*1000
hwm=[l for l in open(f"/proc/{p.pid}/status") if l.startswith("VmHWM")][0].split()[1]
print(f"100 tables, {len(lat)} moves in {wall:.1f} s ({len(lat)/wall:.0f} moves/s); move latency ms p50 {pc(.5):.1f} p90 {pc(.9):.1f} p99 {pc(.99):.1f} max {pc(1):.1f}; server peak RSS {int(hwm)/1024:.1f} MiB")
p.kill()
