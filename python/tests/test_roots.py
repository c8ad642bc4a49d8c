"""The Python package's own tests (plain unittest: no packages needed).
Run from python/: python -m unittest discover -s tests"""

import json
import os
import tempfile
import unittest

import roots


class Variants(unittest.TestCase):
    def test_builtins_of_every_game_load(self):
        for game in roots.games():
            for name in game["variants"]:
                v = roots.load(name)
                self.assertEqual(v.game, game["game"])
                self.assertLessEqual(v.seats[0], v.seats[1])

    def test_overrides_and_inline_text(self):
        v = roots.load("standard", set=["beads.supply=35"])
        self.assertEqual(v.rules["beads"]["supply"], 35)
        w = roots.loads('name = "mine"\n[beads]\nsupply = 30\n', set=["beads.store=4"])
        self.assertEqual((w.name, w.rules["beads"]["store"]), ("mine", 4))

    def test_diagnostics_are_exceptions_with_file_line_and_column(self):
        with self.assertRaises(roots.VariantError) as caught:
            roots.loads('game = "branches"\n[board]\nwidth = "wide"\n')
        e = caught.exception
        self.assertEqual((e.file, e.line), ("<inline toml>", 3))
        self.assertIsInstance(e.col, int)
        self.assertIn("<inline toml>:3:", str(e))
        with self.assertRaises(roots.VariantError) as caught:
            roots.load("btt", set=["board.width=99"])
        self.assertTrue(caught.exception.diagnostics[0].file.startswith("--set"))
        with self.assertRaises(roots.VariantError):
            roots.load("no-such-variant")

    def test_a_variant_file(self):
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, "..", "..", "variants", "fewer-beads.toml")
        self.assertEqual(roots.load(path).game, "roots-and-shoots")


class Play(unittest.TestCase):
    def test_every_game_step_by_step_to_the_end(self):
        for game in roots.games():
            g = roots.load(game["variants"][0]).new_game(players=2, seed=3)
            nodes = set()
            steps = 0
            while not g.over:
                nodes.add(g.node)
                if g.node == "chance":
                    faces = g.chance["faces"]
                    self.assertIn(g.roll(), faces)
                else:
                    self.assertTrue(g.legal)
                    if g.seat == 1:
                        g.apply(g.legal[-1])
                    else:
                        g.bot_move("greedy", play=True)
                steps += 1
                self.assertLess(steps, 20000)
            self.assertEqual(g.outcome["scores"], g.scores)
            self.assertIn("decision", nodes)
            if game["game"] == "roots-and-shoots":
                self.assertIn("chance", nodes)

    def test_refusals_keep_the_game(self):
        g = roots.load("standard").new_game(seed=1)
        before = g.state
        with self.assertRaises(roots.Refused) as caught:
            g.apply("place 0,0")
        self.assertIn("expected a legal action", str(caught.exception))
        self.assertEqual(g.state, before)
        with self.assertRaises(roots.Refused):
            g.roll("3")
        self.assertEqual(g.state, before)

    def test_undo_and_record(self):
        g = roots.load("btt").new_game(seed=2)
        first = g.state
        g.bot_move("random", play=True)
        g.bot_move("random", play=True)
        self.assertEqual(len(g.record()), 3)
        g.undo(2)
        self.assertEqual(g.state, first)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "game.jsonl")
            g.bot_move("greedy", play=True)
            g.save(path)
            with open(path) as f:
                header = json.loads(f.readline())
            self.assertEqual(header["game"], "branches")


class Simulate(unittest.TestCase):
    def test_rows_and_report(self):
        sim = roots.simulate("btt", games=12, bots=["greedy", "random"], seed=5, jobs=2)
        self.assertEqual(sim.report["games"], 12)
        self.assertEqual(len(sim.rows), 12)
        self.assertEqual(sim.rows[0]["bots"], ["greedy", "random"])
        again = roots.simulate(roots.load("btt"), games=12, bots=["greedy", "random"], seed=5)
        self.assertEqual(again.rows, sim.rows)

    def test_dataframe_when_pandas_is_there(self):
        sim = roots.simulate("standard", games=3, set=["board.size=9"])
        try:
            import pandas  # noqa: F401
        except ImportError:
            with self.assertRaises(ImportError):
                sim.dataframe()
            return
        frame = sim.dataframe()
        self.assertEqual(len(frame), 3)
        self.assertIn("score_1", frame.columns)
        for row, winner in zip(sim.rows, frame["winner"]):
            if row["winner"] is not None:
                self.assertEqual(winner, row["winner"] + 1)


class Hostile(unittest.TestCase):
    def test_a_game_used_from_another_thread_is_a_clear_error(self):
        import threading

        game = roots.load("btt").new_game(seed=1)
        caught = []

        def use():
            try:
                game.roll() if game.node == "chance" else game.apply(game.legal[0])
            except Exception as e:  # a PanicException is not an Exception
                caught.append(e)

        t = threading.Thread(target=use)
        t.start()
        t.join()
        self.assertEqual(len(caught), 1)
        self.assertIsInstance(caught[0], roots.RootsError)
        self.assertIn("another thread", str(caught[0]))
        # The game still works in its own thread.
        game.apply(game.legal[0]) if game.node == "decision" else game.roll()

    def test_loads_of_none_is_a_type_error(self):
        with self.assertRaises(TypeError):
            roots.loads(None)
        with self.assertRaises(TypeError):
            roots.load(None)

    def test_rows_can_be_left_out(self):
        sim = roots.simulate("btt", games=3, rows=False)
        self.assertIsNone(sim.rows)
        self.assertEqual(sim.report["games"], 3)


if __name__ == "__main__":
    unittest.main()
