#!/usr/bin/env python3
"""A random bot for roots, in plain Python (no packages); docs/protocol.md.

As a player:  roots simulate btt --bots cmd:"python3 examples/python_bot.py",greedy
  roots sends {"player": "start", ...} then {"player": "move", "state": ...}
  lines; the bot answers each move with {"action": "..."}.
As a client:  python3 examples/python_bot.py --drive ROOTS VARIANT SEED
  it starts `ROOTS engine`, plays seat 1 at random against the engine's
  greedy bot, rolls the seed's dice, and prints the outcome.
"""
import json, random, subprocess, sys

def player():
    rng = random.Random()
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("player") == "start":
            rng.seed(msg["seed"])  # the run's seed: the same games again
        elif msg.get("player") == "move":
            print(json.dumps({"action": rng.choice(msg["state"]["legal"])}), flush=True)

def drive(roots, variant, seed):
    engine = subprocess.Popen([roots, "engine"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    def ask(**request):
        engine.stdin.write(json.dumps(request) + "\n"); engine.stdin.flush()
        answer = json.loads(engine.stdout.readline())
        if not answer["ok"]: sys.exit("refused: " + answer["error"]["message"])
        return answer
    rng = random.Random(seed)
    state = ask(cmd="start", variant=variant, seed=seed)["state"]
    while state["node"] != "over":
        if state["node"] == "chance":
            state = ask(cmd="roll")["state"]
        elif state["seat"] == 1:
            state = ask(cmd="act", action=rng.choice(state["legal"]))["state"]
        else:
            state = ask(cmd="bot", bot="greedy", play=True)["state"]
    ask(cmd="quit")
    print(json.dumps(state["outcome"]))

if __name__ == "__main__":
    if sys.argv[1:2] == ["--drive"]: drive(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else: player()
