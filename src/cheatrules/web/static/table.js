// A seat's (or a spectator's) page: shows the view the server sends, sends the seat's actions.
// The protocol is described in docs/guide/web-table.md. Every word shown comes from the
// server's words table, in this seat's language (the catalogs), never from this script.
"use strict";
(function () {
  const table = decodeURIComponent(location.pathname.split("/").pop());
  const token = location.hash.slice(1);
  const $ = (id) => document.getElementById(id);
  let words = JSON.parse($("words").textContent);
  const remembered = `cheatrules-lang-${table}-${token}`;
  // The seat's language: the link's ?lang=, else what this seat chose before, else the page's.
  let lang = new URLSearchParams(location.search).get("lang") ||
    localStorage.getItem(remembered) || words.lang;
  let socket = null;
  let welcome = null;
  let view = null;
  let closed = false;
  let selected = new Set();
  let shownHand = "";  // the hand the selection was made in
  let countdown = null;

  // A text of the words table with its %(name)s filled in.
  function say(key, values) {
    return words[key].replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }
  const seatName = (seat) => say("seat", { seat: seat });
  const rankName = (rank) => words.ranks[rank] || rank;

  function applyWords() {
    document.documentElement.lang = words.lang;
    document.title = words.table_title;
    document.querySelectorAll("[data-word]").forEach((node) => {
      node.textContent = words[node.dataset.word];
    });
    $("hand").setAttribute("aria-label", words.your_hand);
    const menu = $("language");
    menu.replaceChildren();
    Object.entries(words.languages).forEach(([code, name]) => {
      const option = el("option", "", name);
      option.value = code;
      menu.append(option);
    });
    menu.value = words.lang;
  }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function red(card) { return /[♦♥]/.test(card); }

  function send(action) {
    $("error").textContent = "";
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "action", v: 1, action: action }));
    }
  }

  function claimText(claim) {
    if (!claim) return words.nobody;
    return say("claim_by", { seat: seatName(claim.seat), claim: claim.said });
  }

  function seats(list) {
    return list.map(seatName).join(", ") || words.nobody;
  }

  function render() {
    if (!view || !welcome) return;
    const me = view.seat;
    const title = say("page_title", {
      game: welcome.table.title, who: me === null ? words.spectator : seatName(me),
    });
    $("title").textContent = view.closed ? say("closed_title", { title: title }) : title;
    const decision = view.decision;
    const phase = words.phases[decision.phase] || decision.phase;
    let status;
    if (view.outcome) {
      status = say("game_over", {
        winners: seats(view.outcome.winners), losers: seats(view.outcome.losers),
      });
    } else if (view.window) {
      status = say("window_open", { call: welcome.table.call, claim: claimText(view.window.claim) });
    } else if (view.my_turn) {
      status = say("your_decision", { phase: phase });
    } else {
      status = say("to_decide", { seat: decision.to_move, phase: phase });
    }
    $("status").textContent = status;
    $("outcome").textContent = view.outcome ? status : "";

    const seats = $("seats");
    seats.replaceChildren();
    view.hand_sizes.forEach((size, seat) => {
      const kind = welcome.table.seats[seat];
      const box = el("span", "seat");
      box.dataset.seat = String(seat);
      if (seat === me) box.classList.add("me");
      if (decision.to_move === seat && !view.window) box.classList.add("to-move");
      if (!view.active.includes(seat)) box.classList.add("out");
      const name = kind && kind.kind === "bot"
        ? say("bot_seat", { name: seatName(seat), bot: kind.bot }) : seatName(seat);
      box.append(say("cards_held", { name: name }) + " ");
      box.append(el("span", "count", String(size)));
      seats.append(box);
    });

    $("pile-size").textContent = String(view.pile_size);
    const pile = $("pile");
    pile.replaceChildren();
    view.groups.forEach((group) => {
      const box = el("span", "group", say("group", { claim: group.said, seat: seatName(group.seat) }));
      pile.append(box);
    });
    $("last-claim").textContent = claimText(view.last_claim);
    $("allowed-ranks").textContent = view.allowed_ranks.map(rankName).join(", ");
    $("stock").textContent = view.stock_size ? say("stock", { count: view.stock_size }) : "";
    $("discarded").textContent = view.discarded.length
      ? say("discarded", { cards: view.discarded.join(" ") }) : "";

    // The hand (a seat only).
    const hand = $("hand");
    hand.replaceChildren();
    const held = view.hand || [];
    // A selection is of positions in one hand: a hand that changed (a pickup) forgets it.
    if (held.join(" ") !== shownHand) selected.clear();
    shownHand = held.join(" ");
    held.forEach((card, index) => {
      const button = el("button", "card" + (red(card) ? " red" : ""), card);
      button.dataset.card = card;
      button.dataset.index = String(index);
      if (selected.has(index)) button.classList.add("selected");
      button.addEventListener("click", () => {
        if (selected.has(index)) selected.delete(index); else selected.add(index);
        button.classList.toggle("selected");
        updatePlay();
      });
      hand.append(button);
    });
    $("me").hidden = me === null;

    const rank = $("rank");
    const previous = rank.value;
    rank.replaceChildren();
    view.allowed_ranks.forEach((name) => {
      const option = el("option", "", rankName(name));
      option.value = name;
      rank.append(option);
    });
    if (view.allowed_ranks.includes(previous)) rank.value = previous;

    // The other choices: pass, refuse, discards...
    const choices = $("choices");
    choices.replaceChildren();
    if (!view.window) {
      let buttons = view.choices.slice();
      if (decision.phase === "discard" && view.legal) buttons = view.legal.slice();
      buttons.forEach((action) => {
        const button = el("button", "choice", view.labels[action] || action);
        button.dataset.action = action;
        button.addEventListener("click", () => send(action));
        choices.append(button);
      });
    }

    // The challenge window.
    const box = $("window");
    box.hidden = !view.window;
    if (countdown) { clearInterval(countdown); countdown = null; }
    if (view.window) {
      $("window-claim").textContent = say("window_claim", {
        claim: claimText(view.window.claim),
        seats: view.window.answered.map(seatName).join(", ") || words.nobody_yet,
      });
      $("cheat").disabled = !view.choices.includes("challenge");
      $("accept").disabled = !view.choices.includes("accept");
      const earlier = view.choices.includes("challenge earlier");
      $("cheat-earlier").hidden = !earlier;
      $("cheat-earlier").disabled = !earlier;
      const end = Date.now() + view.window.remaining * 1000;
      const tick = () => {
        const left = Math.max(0, (end - Date.now()) / 1000).toFixed(1);
        $("countdown").textContent = say("seconds", { seconds: left });
      };
      tick();
      countdown = setInterval(tick, 100);
    }
    updatePlay();

    const log = $("log");
    log.replaceChildren();
    view.log.forEach((line) => log.append(el("li", "line", line)));
    log.scrollTop = log.scrollHeight;
  }

  function updatePlay() {
    const canPlay = view && view.my_turn && view.decision.phase === "play" && view.seat !== null;
    $("play").disabled = !(canPlay && selected.size > 0 && $("rank").value);
  }

  $("play").addEventListener("click", () => {
    const held = view.hand || [];
    const cards = [...selected].sort((a, b) => a - b).map((index) => held[index]);
    selected.clear();
    document.querySelectorAll("#hand .card.selected").forEach((card) => card.classList.remove("selected"));
    updatePlay();
    send(`play ${cards.join(" ")} as ${$("rank").value}`);
  });
  $("cheat").addEventListener("click", () => send("challenge"));
  $("cheat-earlier").addEventListener("click", () => send("challenge earlier"));
  $("accept").addEventListener("click", () => send("accept"));
  $("language").addEventListener("change", () => {
    lang = $("language").value;
    localStorage.setItem(remembered, lang);
    const address = new URL(location.href);
    address.searchParams.set("lang", lang);
    history.replaceState(null, "", address);
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "language", v: 1, lang: lang }));
    }
  });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(table)}`);
    socket.addEventListener("open", () => {
      $("connection").textContent = words.connected;
      socket.send(JSON.stringify({ type: "hello", v: 1, token: token, lang: lang }));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "welcome") {
        welcome = message;
        words = { ...message.words, lang: message.lang, languages: message.languages };
        lang = message.lang;
        applyWords();
        $("connection").textContent = words.connected;
        $("cheat").textContent = message.table.call;
        render();
      } else if (message.type === "view") {
        view = message;
        render();
      } else if (message.type === "error" && message.code === "bad-language" && !welcome) {
        localStorage.removeItem(remembered);  // a language remembered wrong: the page's own
        lang = words.lang;
        socket.send(JSON.stringify({ type: "hello", v: 1, token: token, lang: lang }));
      } else if (message.type === "error") {
        $("error").textContent = message.message;
      } else if (message.type === "closed") {
        closed = true;
        $("connection").textContent = words.table_closed;
      }
    });
    socket.addEventListener("close", (event) => {
      if (closed || event.code === 4403 || event.code === 4404) {
        $("connection").textContent =
          event.code >= 4400 ? words.link_not_valid : words.connection_closed;
        return;
      }
      $("connection").textContent = words.reconnecting;
      setTimeout(connect, 1500);  // the same link resumes the seat
    });
  }
  applyWords();
  connect();
})();
