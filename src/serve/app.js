// The page of `roots serve`: the host's lobby (`/?host=KEY`) or a table
// (`/?t=ID&k=KEY`). Plain script, no library; every text from the server
// goes in through textContent (the board's picture is made and escaped by
// the server).
"use strict";
(function () {
  window.addEventListener("error", function (e) {
    document.documentElement.setAttribute("data-error", String(e.message));
  });
  var q = new URLSearchParams(location.search);
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function problem(text) {
    var p = $("problem");
    p.textContent = text;
    p.hidden = !text;
  }
  function call(method, url, key, body) {
    var opts = { method: method, headers: { "X-Roots-Key": key } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(url, opts).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) throw new Error(j.error || ("the server answered " + r.status));
        return j;
      });
    });
  }

  // ---------------------------------------------------------------- lobby
  function lobby(key) {
    $("lobby").hidden = false;
    $("title").textContent = "roots serve: open a table";
    var variants = [];
    function seatsFor(v) {
      var count = $("count"), n = Number(count.value) || v.min;
      count.textContent = "";
      for (var i = v.min; i <= v.max; i++) count.appendChild(new Option(String(i), String(i)));
      count.value = String(Math.min(Math.max(n, v.min), v.max));
      drawSeats();
    }
    function drawSeats() {
      var box = $("seats"), n = Number($("count").value), old = box.children.length;
      while (box.children.length > n) box.removeChild(box.lastChild);
      for (var s = old; s < n; s++) {
        var d = el("div", null, "seat");
        d.appendChild(el("span", "Seat " + (s + 1) + " "));
        var who = el("select");
        who.className = "who";
        ["human", "greedy", "mcts", "random"].forEach(function (w) { who.appendChild(new Option(w, w)); });
        who.appendChild(new Option("another (type it)", "other"));
        if (s > 0) who.value = "human";
        var other = el("input");
        other.className = "other";
        other.placeholder = "mcts:2000 or cmd:PROGRAM";
        other.hidden = true;
        who.addEventListener("change", function (o, w) { return function () { o.hidden = w.value !== "other"; }; }(other, who));
        var name = el("input");
        name.className = "name";
        name.placeholder = "name";
        name.maxLength = 40;
        name.size = 12;
        d.appendChild(who); d.appendChild(other); d.appendChild(name);
        box.appendChild(d);
      }
    }
    function refresh() {
      return call("GET", "/api/tables", key).then(function (j) {
        if (!variants.length) {
          variants = j.variants;
          j.variants.forEach(function (v) {
            $("variant").appendChild(new Option(v.name + " (" + v.game + ", " + v.min + (v.max > v.min ? "-" + v.max : "") + " players)", v.name));
          });
          seatsFor(variants[0]);
        }
        var ul = $("tables");
        ul.textContent = "";
        // Before the first table, say what the list will hold.
        if (!j.tables.length) ul.appendChild(el("li", "No table yet: each table you open is listed here, with a link to watch it."));
        j.tables.forEach(function (t) {
          var li = el("li");
          li.appendChild(el("strong", t.table.title));
          li.appendChild(el("span", ": " + t.table.players.join(", ") + "; " + t.table.events + " events; " +
            (t.closed ? "closed" : (t.table.over ? "over" : t.table.waiting)) + " "));
          var a = el("a", "watch");
          a.href = t.host;
          li.appendChild(a);
          ul.appendChild(li);
        });
      }).catch(function (e) { problem(e.message); });
    }
    $("variant").addEventListener("change", function () {
      var v = variants.filter(function (x) { return x.name === $("variant").value; })[0];
      if (v) seatsFor(v);
    });
    $("count").addEventListener("change", drawSeats);
    $("new").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var players = [], names = [];
      Array.prototype.forEach.call($("seats").children, function (d) {
        var w = d.querySelector(".who").value;
        players.push(w === "other" ? d.querySelector(".other").value : w);
        names.push(d.querySelector(".name").value);
      });
      var body = { variant: $("variant").value, players: players, names: names, dice: $("dice").value };
      if ($("seed").value.trim()) body.seed = Number($("seed").value.trim());
      call("POST", "/api/tables", key, body).then(function (t) {
        problem("");
        var ul = $("links");
        ul.textContent = "";
        t.seats.forEach(function (s) {
          var li = el("li");
          li.appendChild(el("span", "Seat " + s.seat + " (" + s.name + "): "));
          if (s.link) {
            var a = el("a", location.origin + s.link);
            a.href = s.link;
            a.className = "seat-link";
            a.target = "_blank";
            li.appendChild(a);
          } else {
            li.appendChild(el("span", "a bot"));
          }
          ul.appendChild(li);
        });
        var li = el("li");
        li.appendChild(el("span", "Host (watch, close): "));
        var a = el("a", location.origin + t.host);
        a.href = t.host;
        a.className = "host-link";
        li.appendChild(a);
        ul.appendChild(li);
        $("made").hidden = false;
        refresh();
      }).catch(function (e) { problem(e.message); });
    });
    refresh();
  }

  // ---------------------------------------------------------------- table
  function table(id, key) {
    $("table").hidden = false;
    var base = "/api/t/" + encodeURIComponent(id);
    // `busy` while a request is on its way. The server shows the move to
    // every page before it answers the request, so a view whose event count
    // moved on also ends `busy`: a click on that new view must be played,
    // not dropped while the old answer is still on the wire.
    var view = null, svgShown = null, busy = false, sentAt = null, sent = 0;
    function said(text, bad) {
      $("said").textContent = text || "";
      $("said").className = bad ? "bad" : "";
    }
    function send(what, body) {
      if (busy) { said("Your last request is still on its way; try again in a moment.", true); return; }
      busy = true;
      sentAt = view ? view.events : null;
      var ticket = ++sent;
      $("choose").hidden = true;
      call("POST", base + "/" + what, key, body).then(function (j) {
        if (ticket === sent) said(j.ok === "played " + (body.action || "") ? "" : j.ok);
      }).catch(function (e) { said(e.message, true); }).then(function () { if (ticket === sent) busy = false; });
    }
    function play(text) { send("act", { action: text }); }
    function choose(moves) {
      var box = $("choices");
      box.textContent = "";
      moves.forEach(function (m) {
        var b = el("button", m.text);
        b.type = "button";
        b.setAttribute("data-move", m.text);
        b.addEventListener("click", function () { play(m.text); });
        box.appendChild(b);
      });
      $("choose").hidden = false;
    }
    $("choose-cancel").addEventListener("click", function () {
      $("choose").hidden = true;
      Array.prototype.forEach.call(document.querySelectorAll("#board .mv.picked"), function (c) { c.classList.remove("picked"); });
    });
    $("board").addEventListener("click", function (ev) {
      var c = ev.target.closest ? ev.target.closest(".mv") : null;
      if (!c || !view || !view.mine) return;
      var at = Number(c.getAttribute("data-at"));
      var moves = view.moves.filter(function (m) { return m.at === at; });
      Array.prototype.forEach.call(document.querySelectorAll("#board .mv.picked"), function (x) { x.classList.remove("picked"); });
      if (moves.length === 1) play(moves[0].text);
      else if (moves.length > 1) { c.classList.add("picked"); choose(moves); }
    });
    $("typed").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var v = $("face").value.trim();
      if (v) { send("chance", { face: v }); $("face").value = ""; }
    });
    $("undo").addEventListener("click", function () {
      var me = view && view.you ? view.seats[view.you - 1] : null;
      send("undo", { agree: !(me && me.undo) });
    });
    $("close").addEventListener("click", function () {
      if (!window.confirm("Close this table? Nobody can play on it afterwards (its record stays).")) return;
      send("close", {});
    });
    Array.prototype.forEach.call(document.querySelectorAll("#questions .scale"), function (s) {
      for (var i = 1; i <= 5; i++) {
        var l = el("label");
        var r = el("input");
        r.type = "radio"; r.name = s.getAttribute("data-name"); r.value = String(i);
        l.appendChild(r); l.appendChild(document.createTextNode(" " + i + " "));
        s.appendChild(l);
      }
    });
    $("questions").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var f = $("questions");
      function pick(n) { var x = f.querySelector("input[name=" + n + "]:checked"); return x ? x.value : null; }
      var fun = pick("fun"), fair = pick("fairness"), len = pick("length");
      if (!fun || !fair || !len) { said("Please answer fun, fairness and length.", true); return; }
      call("POST", base + "/feedback", key, { fun: Number(fun), fairness: Number(fair), length: len, text: $("free").value })
        .then(function () { said(""); })
        .catch(function (e) { said(e.message, true); });
    });

    function render(v) {
      view = v;
      if (busy && sentAt !== null && v.events !== sentAt) busy = false;
      document.title = v.title + (v.mine ? " (your turn)" : "");
      $("title").textContent = v.title;
      $("about").textContent = v.you ? "You play seat " + v.you + " (" + v.seats[v.you - 1].name + ")." : "You are the host: you watch, and can close the table.";
      var turn = $("turn");
      if (v.closed) turn.textContent = "The host closed this table.";
      else if (v.stopped) turn.textContent = "The game stopped: " + v.stopped;
      else if (v.waiting_for_disk) turn.textContent = "The table waits: the server cannot write its record (is its disk full?). It goes on by itself once it can.";
      else if (v.outcome) turn.textContent = "The game is over.";
      else if (v.mine) {
        var onBoard = v.moves.some(function (m) { return m.at !== null; });
        var asButtons = v.moves.some(function (m) { return m.at === null; });
        // A game without a clickable picture (Game::click_points' default)
        // offers every move as a button.
        turn.textContent = "Your turn: " + v.waiting + ". " + (onBoard
          ? "Click a marked place on the board" + (asButtons ? " or a button below it." : ".")
          : "Pick your move with a button below the board.");
      }
      else if (v.chance) turn.textContent = "Waiting for the dice: " + v.waiting + ". Type what was rolled below.";
      else turn.textContent = "Waiting: " + v.waiting + ".";
      turn.className = v.mine ? "mine" : "";
      if (v.svg !== svgShown) {
        $("board").innerHTML = v.svg;
        svgShown = v.svg;
        $("choose").hidden = true;
      }
      var buttons = $("buttons");
      buttons.textContent = "";
      if (v.mine && !v.closed) {
        v.moves.forEach(function (m) {
          if (m.at !== null) return;
          var b = el("button", m.text);
          b.type = "button";
          b.setAttribute("data-move", m.text);
          b.addEventListener("click", function () { play(m.text); });
          buttons.appendChild(b);
        });
      }
      var typed = v.chance && v.you && !v.closed && !v.outcome;
      $("typed").hidden = !typed;
      if (typed) $("typed-what").textContent = v.chance.die ? "Face of the " + v.chance.die + " (1 to " + v.chance.sides + ")" : "Card turned over";
      var tb = $("players").tBodies[0];
      tb.textContent = "";
      v.seats.forEach(function (s) {
        var tr = el("tr");
        if (v.due === s.seat) tr.className = "due";
        var td = el("td");
        td.appendChild(el("span", s.letter + " "));
        tr.appendChild(td);
        tr.appendChild(el("td", s.name + (v.you === s.seat ? " (you)" : "") + (s.human ? "" : " (bot)")));
        tr.appendChild(el("td", "score " + s.score));
        tr.appendChild(el("td", s.undo ? "asks to undo" : ""));
        tb.appendChild(tr);
      });
      var me = v.you ? v.seats[v.you - 1] : null;
      $("undo-box").hidden = !me || !!v.outcome || !!v.closed;
      $("undo").textContent = me && me.undo ? "Withdraw the undo request" : "Ask to undo";
      var asking = v.seats.filter(function (s) { return s.undo; }).length;
      $("undo-state").textContent = asking ? asking + " of " + v.seats.filter(function (s) { return s.human; }).length + " people ask to undo" : "";
      var over = $("over");
      if (v.outcome) {
        over.hidden = false;
        over.textContent = "Game over (" + v.outcome.reason + "). Scores: " +
          v.seats.map(function (s, i) { return s.letter + " " + v.outcome.scores[i]; }).join(", ") +
          ". " + (v.outcome.winners.length > 1 ? "Winners (tie): " : "Winner: ") +
          v.outcome.winners.map(function (w) { return v.seats[w - 1].letter + " (" + v.seats[w - 1].name + ")"; }).join(", ") + ".";
      } else over.hidden = true;
      var ask = (v.outcome || v.stopped) && v.you && !v.answered;
      $("questions").hidden = !ask;
      $("thanks").hidden = !(v.you && v.answered);
      $("close").hidden = !v.host || v.closed;
      var log = $("log");
      log.textContent = "";
      v.log.forEach(function (line) { log.appendChild(el("li", line)); });
      log.start = Math.max(1, v.events - v.log.length + 1);
      log.scrollTop = log.scrollHeight;
      document.documentElement.setAttribute("data-events", String(v.events));
      document.documentElement.setAttribute("data-mine", v.mine ? "1" : "0");
    }
    var es = new EventSource(base + "/events?k=" + encodeURIComponent(key));
    es.onmessage = function (m) {
      problem("");
      try { render(JSON.parse(m.data)); } catch (e) { problem("cannot show the table: " + e.message); }
    };
    es.onerror = function () {
      problem("The connection to the server dropped; trying again...");
      call("GET", base, key).then(function () {}).catch(function (e) {
        problem(e.message);
        if (/key|no such table/.test(e.message)) es.close();
      });
    };
  }

  if (q.get("t") && q.get("k")) table(q.get("t"), q.get("k"));
  else if (q.get("host")) lobby(q.get("host"));
  else problem("This page needs a link: the host's link is printed by `roots serve`, each seat's link comes from the host.");
})();
