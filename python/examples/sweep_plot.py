"""A sweep in a notebook's style: how the bead supply changes Roots and
Shoots, greedy against random. Needs matplotlib (and pandas for the table).

    pip install ./python matplotlib pandas
    python python/examples/sweep_plot.py        # writes sweep.png
"""

# %% Simulate each supply with the same seed (matched dice across supplies).
import roots

supplies = list(range(30, 91, 15))
results = []
for supply in supplies:
    sim = roots.simulate(
        "standard",
        set=[f"beads.supply={supply}"],
        games=60,
        bots=["greedy", "random"],
        rotate=True,
        seed=1,
        jobs=2,
    )
    frame = sim.dataframe()
    greedy_won = sum(
        1 for row in sim.rows
        if row["winner"] is not None and row["bots"][row["winner"]] == "greedy"
    )
    results.append(
        {
            "supply": supply,
            "greedy_win_rate": greedy_won / len(sim.rows),
            "mean_rounds": frame["rounds"].mean(),
        }
    )
    print(results[-1])

# %% Plot win rate and game length against the supply.
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

fig, left = plt.subplots(figsize=(6, 4))
left.plot(supplies, [r["greedy_win_rate"] for r in results], "o-", color="tab:green")
left.set_xlabel("beads.supply")
left.set_ylabel("greedy's win rate against random", color="tab:green")
left.set_ylim(0, 1)
right = left.twinx()
right.plot(supplies, [r["mean_rounds"] for r in results], "s--", color="tab:brown")
right.set_ylabel("mean rounds", color="tab:brown")
fig.suptitle("Roots and Shoots: bead supply sweep (60 games each)")
fig.tight_layout()
fig.savefig("sweep.png", dpi=120)
print("wrote sweep.png")
