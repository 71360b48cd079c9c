// A seat's (or a spectator's) page: shows the view the server sends, sends the seat's actions.
// The protocol is described in docs/guide/web-table.md.
"use strict";
(function () {
  const table = decodeURIComponent(location.pathname.split("/").pop());
  const token = location.hash.slice(1);
  const $ = (id) => document.getElementById(id);
  let socket = null;
  let welcome = null;
  let view = null;
  let closed = false;
  let selected = new Set();
  let shownHand = "";  // the hand the selection was made in
  let countdown = null;

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
    if (!claim) return "none";
    return `seat ${claim.seat}: ${claim.count} × ${claim.rank}`;
  }

  function render() {
    if (!view || !welcome) return;
    const me = view.seat;
    $("title").textContent = `${welcome.table.title}: ` +
      (me === null ? "spectator" : `seat ${me}`) + (view.closed ? " (closed)" : "");
    const decision = view.decision;
    let status;
    if (view.outcome) {
      status = `Game over. Winners: ${view.outcome.winners.join(" ") || "none"}; ` +
        `losers: ${view.outcome.losers.join(" ") || "none"}`;
    } else if (view.window) {
      status = `${welcome.table.call} window open: ${claimText(view.window.claim)}`;
    } else if (view.my_turn) {
      status = `Your decision (${decision.phase})`;
    } else {
      status = `Seat ${decision.to_move} to decide (${decision.phase})`;
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
      box.append(`seat ${seat}${kind && kind.kind === "bot" ? " (" + kind.bot + ")" : ""}: `);
      box.append(el("span", "count", String(size)));
      box.append(" cards");
      seats.append(box);
    });

    $("pile-size").textContent = String(view.pile_size);
    const pile = $("pile");
    pile.replaceChildren();
    view.groups.forEach((group) => {
      const box = el("span", "group", `${group.count} × ${group.rank} (seat ${group.seat})`);
      pile.append(box);
    });
    $("last-claim").textContent = claimText(view.last_claim);
    $("allowed-ranks").textContent = view.allowed_ranks.join(" ");
    $("stock").textContent = view.stock_size ? `stock: ${view.stock_size}` : "";
    $("discarded").textContent = view.discarded.length ? `discarded: ${view.discarded.join(" ")}` : "";

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
      const option = el("option", "", name);
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
        const button = el("button", "choice", action);
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
      $("window-claim").textContent =
        `Claim: ${claimText(view.window.claim)}. Answered: ` +
        (view.window.answered.map((seat) => `seat ${seat}`).join(", ") || "nobody yet");
      $("cheat").disabled = !view.choices.includes("challenge");
      $("accept").disabled = !view.choices.includes("accept");
      const earlier = view.choices.includes("challenge earlier");
      $("cheat-earlier").hidden = !earlier;
      $("cheat-earlier").disabled = !earlier;
      const end = Date.now() + view.window.remaining * 1000;
      const tick = () => {
        $("countdown").textContent = `${Math.max(0, (end - Date.now()) / 1000).toFixed(1)} s`;
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

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(table)}`);
    socket.addEventListener("open", () => {
      $("connection").textContent = "connected";
      socket.send(JSON.stringify({ type: "hello", v: 1, token: token }));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "welcome") {
        welcome = message;
        $("cheat").textContent = message.table.call;
      } else if (message.type === "view") {
        view = message;
        render();
      } else if (message.type === "error") {
        $("error").textContent = message.message;
      } else if (message.type === "closed") {
        closed = true;
        $("connection").textContent = "the table is closed";
      }
    });
    socket.addEventListener("close", (event) => {
      if (closed || event.code === 4403 || event.code === 4404) {
        $("connection").textContent = event.code >= 4400 ? "this link is not valid" : "closed";
        return;
      }
      $("connection").textContent = "reconnecting…";
      setTimeout(connect, 1500);  // the same link resumes the seat
    });
  }
  connect();
})();
