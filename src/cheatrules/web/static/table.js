// A seat's (or a spectator's) page: shows the view the server sends, sends the seat's actions.
// The protocol (version 2) is described in docs/guide/web-table.md. Every word shown comes from
// the server's words table, in this seat's language (the catalogs), never from this script.
"use strict";
(function () {
  const VERSION = 2;
  const table = decodeURIComponent(location.pathname.split("/").pop());
  const token = location.hash.slice(1);
  const $ = (id) => document.getElementById(id);
  let words = JSON.parse($("words").textContent);
  const remembered = `cheatrules-lang-${table}-${token}`;
  const rememberedName = `cheatrules-name-${table}-${token}`;
  // The seat's language: the link's ?lang=, else what this seat chose before, else the page's.
  let lang = new URLSearchParams(location.search).get("lang") || recall(remembered) || words.lang;
  // The name this seat gives the table, sent in every hello (a seat's link only).
  let name = cleanName(recall(rememberedName) || "");
  let socket = null;
  let greeted = false;  // this socket was welcomed
  let welcome = null;
  let view = null;
  let gone = false;  // the table is closed, expired or unknown, or the link is not valid
  let lines = [];  // the narrated log, as far as this page holds it
  let linesLang = null;  // the language those lines are in
  let drawn = 0;  // the lines of `lines` shown in #log
  let changedFrom = 0;  // the first line that changed since #log was drawn
  let selected = new Set();
  let shownHand = "";  // the hand the selection was made in
  let refusal = "";  // why the last card clicked was not selected
  let chosenFours = new Set();
  let shownOffer = "";  // the offer the chosen fours were chosen in
  let countdown = null;

  // localStorage, where the browser keeps it (a private window may refuse).
  function recall(key) {
    try { return localStorage.getItem(key); } catch (error) { return null; }
  }
  function keep(key, value) {
    try {
      if (value) localStorage.setItem(key, value); else localStorage.removeItem(key);
    } catch (error) { /* the choice lasts as long as the page */ }
  }

  // A name as the server takes it: printable, spaces collapsed, trimmed, at most 24 characters.
  function cleanName(text) {
    const printable = String(text).replace(/\p{C}/gu, "").split(/\s+/u).filter(Boolean).join(" ");
    return [...printable].slice(0, 24).join("").trim();
  }

  // A text of the words table with its %(name)s filled in.
  function say(key, values) {
    return words[key].replace(/%\((\w+)\)s/g, (_, part) => String(values[part]));
  }
  // The name a seat gave when it joined, if it gave one.
  function givenName(seat) {
    const names = view && Array.isArray(view.names) ? view.names
      : ((welcome && welcome.table.seats) || []).map((each) => each && each.name);
    return names[seat] || null;
  }
  // A seat as the page shows it: the name it gave, else "seat 2".
  const seatName = (seat) => givenName(seat) || say("seat", { seat: seat });
  const rankName = (rank) => (words.ranks && words.ranks[rank]) || rank;
  const fourName = (rank) => (words.fours && words.fours[rank]) || rankName(rank);
  const botName = (bot) => (words.bots && words.bots[bot]) || bot;

  function applyWords() {
    document.documentElement.lang = words.lang;
    document.title = words.table_title;
    document.querySelectorAll("[data-word]").forEach((node) => {
      node.textContent = words[node.dataset.word];
    });
    $("hand").setAttribute("aria-label", words.your_hand);
    const menu = $("language");
    menu.replaceChildren();
    Object.entries(words.languages).forEach(([code, shown]) => {
      const option = el("option", "", shown);
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
      socket.send(JSON.stringify({ type: "action", v: VERSION, action: action }));
    }
  }

  function claimText(claim) {
    if (!claim) return words.nobody;
    return say("claim_by", { seat: seatName(claim.seat), claim: claim.said });
  }

  function seatList(list) {
    return list.map(seatName).join(", ") || words.nobody;
  }

  // The fewest and most cards a claim of this seat may hold now.
  function claimSizes() {
    const sizes = view && view.claim_sizes;
    return Array.isArray(sizes) && sizes.length === 2 ? sizes : [1, Infinity];
  }

  // The game is over, or the table closed or gone: nothing may be done any more.
  function ended() {
    return Boolean(view && (view.outcome || view.closed)) || gone;
  }

  function render() {
    if (!view || !welcome) return;
    const me = view.seat;
    const done = ended();
    const title = say("page_title", {
      game: welcome.table.title, who: me === null ? words.spectator : seatName(me),
    });
    $("title").textContent = view.closed ? say("closed_title", { title: title }) : title;
    document.body.classList.toggle("game-over", Boolean(view.outcome));
    const decision = view.decision;
    const phase = words.phases[decision.phase] || decision.phase;
    let status;
    if (view.outcome) {
      status = say("game_over", {
        winners: seatList(view.outcome.winners), losers: seatList(view.outcome.losers),
      });
    } else if (view.window) {
      status = say("window_open", { call: welcome.table.call, claim: claimText(view.window.claim) });
    } else if (view.my_turn) {
      status = say("your_decision", { phase: phase });
    } else {
      const named = givenName(decision.to_move);
      status = named ? say("named_to_decide", { name: named, phase: phase })
        : say("to_decide", { seat: decision.to_move, phase: phase });
    }
    $("status").textContent = status;
    let outcome = "";
    if (view.outcome) {
      outcome = status;
      if (me !== null && view.outcome.winners.includes(me)) outcome = `${words.you_won} ${status}`;
      if (me !== null && view.outcome.losers.includes(me)) outcome = `${words.you_lost} ${status}`;
    }
    $("outcome").textContent = outcome;

    const seatBoxes = $("seats");
    seatBoxes.replaceChildren();
    const winners = view.outcome ? view.outcome.winners : [];
    const losers = view.outcome ? view.outcome.losers : [];
    view.hand_sizes.forEach((size, seat) => {
      const kind = welcome.table.seats[seat];
      const box = el("span", "seat");
      box.dataset.seat = String(seat);
      if (seat === me) box.classList.add("me");
      if (decision.to_move === seat && !view.window && !done) box.classList.add("to-move");
      if (!view.active.includes(seat)) box.classList.add("out");
      if (winners.includes(seat)) box.classList.add("winner");
      if (losers.includes(seat)) box.classList.add("loser");
      const shown = kind && kind.kind === "bot"
        ? say("bot_seat", { name: seatName(seat), bot: botName(kind.bot) }) : seatName(seat);
      box.append(el("span", "name", say("cards_held", { name: shown })), " ");
      box.append(el("span", "count", String(size)));
      seatBoxes.append(box);
    });

    $("pile-size").textContent = String(view.pile_size);
    const pile = $("pile");
    pile.replaceChildren();
    view.groups.forEach((group) => {
      pile.append(el("span", "group", say("group", { claim: group.said, seat: seatName(group.seat) })));
    });
    $("last-claim").textContent = claimText(view.last_claim);
    $("allowed-ranks").textContent = view.allowed_ranks.map(rankName).join(", ");
    $("next-claim").hidden = view.allowed_ranks.length === 0;  // none once the game is over
    $("stock").textContent = view.stock_size ? say("stock", { count: view.stock_size }) : "";
    $("discarded").textContent = view.discarded.length
      ? say("discarded", { cards: view.discarded.join(" ") }) : "";

    renderHand(done);
    $("me").hidden = me === null;
    if (me !== null && document.activeElement !== $("name")) $("name").value = name;

    const rank = $("rank");
    const previous = rank.value;
    rank.replaceChildren();
    view.allowed_ranks.forEach((code) => {
      const option = el("option", "", rankName(code));
      option.value = code;
      rank.append(option);
    });
    if (view.allowed_ranks.includes(previous)) rank.value = previous;
    rank.disabled = done;

    renderChoices(done);
    renderOffer(done);
    renderWindow(done);
    updatePlay();
    drawLog();
  }

  // The hand (a seat only): the cards just taken in are marked, copies counted one by one.
  function renderHand(done) {
    const hand = $("hand");
    hand.replaceChildren();
    const held = view.hand || [];
    // A selection is of positions in one hand: a hand that changed (a pickup) forgets it.
    if (held.join(" ") !== shownHand || selected.size > claimSizes()[1]) {
      selected.clear();
      refusal = "";
    }
    shownHand = held.join(" ");
    const fresh = new Map();
    (view.new_cards || []).forEach((card) => fresh.set(card, (fresh.get(card) || 0) + 1));
    held.forEach((card, index) => {
      const button = el("button", "card" + (red(card) ? " red" : ""), card);
      button.dataset.card = card;
      button.dataset.index = String(index);
      const unmarked = fresh.get(card) || 0;
      if (unmarked > 0) {
        fresh.set(card, unmarked - 1);
        button.classList.add("new");
        button.title = say("new_card", { card: card });
        button.setAttribute("aria-label", button.title);
      }
      button.classList.toggle("selected", selected.has(index));
      button.setAttribute("aria-pressed", String(selected.has(index)));
      button.disabled = done;
      button.addEventListener("click", () => choose(index, button));
      hand.append(button);
    });
  }

  // Select or unselect a card; never more than a claim may hold.
  function choose(index, button) {
    if (selected.has(index)) {
      selected.delete(index);
      refusal = "";
    } else {
      const most = claimSizes()[1];
      if (selected.size >= most) {
        refusal = say("most_cards", { most: most });
        updatePlay();
        return;
      }
      selected.add(index);
      refusal = "";
    }
    button.classList.toggle("selected", selected.has(index));
    button.setAttribute("aria-pressed", String(selected.has(index)));
    updatePlay();
  }

  // The other choices: pass, refuse, a challenge on one's turn, discards at any turn...
  function renderChoices(done) {
    const choices = $("choices");
    choices.replaceChildren();
    if (view.window || done) return;
    const buttons = view.choices.slice();
    // Fours a seat may set aside during its turn, when listed and not offered as toggles.
    const toggled = (view.offered || []).length > 0;
    if (view.my_turn && view.decision.phase !== "discard" && !toggled &&
        Array.isArray(view.legal)) {
      view.legal.filter((action) => action.startsWith("discard ")).forEach((action) => {
        if (!buttons.includes(action)) buttons.push(action);
      });
    }
    buttons.forEach((action) => {
      const button = el("button", "choice", view.labels[action] || discardLabel(action));
      button.dataset.action = action;
      button.addEventListener("click", () => send(action));
      choices.append(button);
    });
  }

  function discardLabel(action) {
    const ranks = action.split(" ").slice(1);
    if (!action.startsWith("discard")) return action;
    if (!ranks.length) return words.discard_none;
    return say("set_aside", { fours: ranks.map(fourName).join(", ") });
  }

  // A discard offer (or fours offered on a turn): one toggle per four offered, whatever the
  // number of subsets. Declining is a choice of the discard phase alone.
  function renderOffer(done) {
    const me = view.seat;
    const phase = view.decision.phase;
    const offering = !done && !view.window && me !== null && view.my_turn &&
      (phase === "discard" || (view.offered || []).length > 0);
    $("discard").hidden = !offering;
    $("discard-none").hidden = phase !== "discard";
    const fours = $("fours");
    fours.replaceChildren();
    if (!offering) return;
    const offered = view.offered || [];
    const offer = `${view.n}/${offered.join(" ")}`;
    if (offer !== shownOffer) chosenFours.clear();
    shownOffer = offer;
    offered.forEach((rank, index) => {
      const toggle = el("button", "four", fourName(rank));
      toggle.type = "button";
      toggle.dataset.rank = rank;
      toggle.dataset.index = String(index);
      const mark = () => {
        toggle.classList.toggle("selected", chosenFours.has(index));
        toggle.setAttribute("aria-pressed", String(chosenFours.has(index)));
        $("discard-chosen").disabled = chosenFours.size === 0;
      };
      toggle.addEventListener("click", () => {
        if (chosenFours.has(index)) chosenFours.delete(index); else chosenFours.add(index);
        mark();
      });
      mark();
      fours.append(toggle);
    });
    $("discard-chosen").hidden = offered.length === 0;
    $("discard-chosen").disabled = chosenFours.size === 0;
  }

  $("discard-chosen").addEventListener("click", () => {
    const offered = (view && view.offered) || [];
    const ranks = [...chosenFours].sort((a, b) => a - b).map((index) => offered[index]);
    if (ranks.length) send(["discard", ...ranks].join(" "));
  });
  $("discard-none").addEventListener("click", () => send("discard"));

  // The challenge window, with its countdown.
  function renderWindow(done) {
    const box = $("window");
    const open = Boolean(view.window) && !done;
    box.hidden = !open;
    if (countdown) { clearInterval(countdown); countdown = null; }
    $("countdown").textContent = "";
    if (!open) {
      ["cheat", "accept", "cheat-earlier"].forEach((id) => { $(id).disabled = true; });
      return;
    }
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

  function updatePlay() {
    const [least, most] = claimSizes();
    const count = selected.size;
    const canPlay = view && !ended() && view.my_turn && view.decision.phase === "play" &&
      view.seat !== null;
    $("play").disabled = !(canPlay && count >= least && count <= most && $("rank").value);
    let hint = refusal;
    if (!hint && count > 0 && count < least) hint = say("least_cards", { least: least });
    $("hint").textContent = hint;
  }

  // The log as this page holds it, from the part a view carries: the lines before
  // `log_from` are kept, the rest replaced.
  function takeLog(message) {
    const from = Number.isInteger(message.log_from) ? message.log_from : 0;
    if (from > lines.length) {
      // Lines missing between the page's and the view's: ask for the whole log again.
      lines = [];
      linesLang = null;
      reconnect();
      return false;
    }
    lines = lines.slice(0, from).concat(message.log || []);
    linesLang = lang;
    changedFrom = Math.min(changedFrom, from);
    return true;
  }

  // Show the lines that changed; the lines before them stay as they are.
  function drawLog() {
    const log = $("log");
    const kept = Math.min(drawn, changedFrom, log.children.length);
    while (log.children.length > kept) log.lastChild.remove();
    lines.slice(kept).forEach((line) => log.append(el("li", "line", line)));
    if (lines.length > kept) log.scrollTop = log.scrollHeight;
    drawn = lines.length;
    changedFrom = drawn;
  }

  $("play").addEventListener("click", () => {
    const held = view.hand || [];
    const cards = [...selected].sort((a, b) => a - b).map((index) => held[index]);
    selected.clear();
    refusal = "";
    document.querySelectorAll("#hand .card.selected").forEach((card) => {
      card.classList.remove("selected");
      card.setAttribute("aria-pressed", "false");
    });
    updatePlay();
    send(`play ${cards.join(" ")} as ${$("rank").value}`);
  });
  $("rank").addEventListener("change", updatePlay);
  $("cheat").addEventListener("click", () => send("challenge"));
  $("cheat-earlier").addEventListener("click", () => send("challenge earlier"));
  $("accept").addEventListener("click", () => send("accept"));
  $("language").addEventListener("change", () => {
    lang = $("language").value;
    keep(remembered, lang);
    const address = new URL(location.href);
    address.searchParams.set("lang", lang);
    history.replaceState(null, "", address);
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "language", v: VERSION, lang: lang }));
    }
  });
  // A new name is given at once: the page says hello again on a new connection.
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const given = cleanName($("name").value);
    $("name").value = given;
    if (given === name) return;
    name = given;
    keep(rememberedName, name);
    if (name && !gone) reconnect();
  });

  function hello() {
    const message = { type: "hello", v: VERSION, token: token, lang: lang };
    if (name && (!welcome || welcome.role === "seat")) message.name = name;
    // A reconnection asks only for the lines the page does not hold.
    if (lines.length && linesLang === lang) message.since = lines.length;
    socket.send(JSON.stringify(message));
  }

  function receive(message) {
    if (message.type === "welcome") {
      greeted = true;
      welcome = message;
      words = { ...message.words, lang: message.lang, languages: message.languages };
      lang = message.lang;
      applyWords();
      $("connection").textContent = words.connected;
      $("cheat").textContent = message.table.call;
      render();
    } else if (message.type === "view") {
      if (!takeLog(message)) return;
      view = message;
      render();
    } else if (message.type === "error" && message.code === "bad-language" && !greeted) {
      keep(remembered, "");  // a language remembered wrong: the page's own
      lang = words.lang;
      hello();
    } else if (message.type === "error" && !greeted && message.code === "bad-message" && name) {
      name = "";  // a name the server does not take: join without it
      keep(rememberedName, "");
      hello();
    } else if (message.type === "error") {
      $("error").textContent = message.message;
    } else if (message.type === "closed") {
      gone = true;
      $("connection").textContent = message.reason || words.table_closed;
      render();
    }
  }

  // What a close code means, and whether (and when) to connect again.
  function lost(code) {
    const shown = $("connection");
    if (gone) {
      if (!shown.textContent) shown.textContent = words.table_closed;
      return;
    }
    if (code === 4403 || code === 4404) {
      gone = true;
      shown.textContent = code === 4403 ? words.link_not_valid : words.table_gone;
      render();
    } else if (code === 4429) {
      shown.textContent = words.too_busy;
      setTimeout(connect, 5000);
    } else if (code === 4413) {
      shown.textContent = words.fell_behind;
      connect();  // at once: the hello asks for the lines the page lacks
    } else if (code === 4408) {
      shown.textContent = words.hello_late;
      setTimeout(connect, 1500);
    } else {
      shown.textContent = words.reconnecting;
      setTimeout(connect, 1500);  // the same link resumes the seat
    }
  }

  function connect() {
    if (gone) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const mine = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(table)}`);
    socket = mine;
    greeted = false;
    // An old socket's late events are not this page's any more.
    mine.addEventListener("open", () => {
      if (socket !== mine) return;
      $("connection").textContent = words.connected;
      hello();
    });
    mine.addEventListener("message", (event) => {
      if (socket === mine) receive(JSON.parse(event.data));
    });
    mine.addEventListener("close", (event) => {
      if (socket === mine) lost(event.code);
    });
  }

  function reconnect() {
    const old = socket;
    socket = null;
    if (old) old.close();
    connect();
  }

  applyWords();
  connect();
})();
