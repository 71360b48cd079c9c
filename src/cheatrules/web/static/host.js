// The host page: choose a game and its seats, create the table, hand out the links.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let catalogue = null;
  let created = null;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function seatKinds() {
    const box = $("seat-kinds");
    const old = [...box.querySelectorAll(".seat-kind")].map((select) => select.value);
    box.replaceChildren();
    const players = Number($("players").value) || 0;
    for (let seat = 0; seat < players; seat++) {
      const label = el("label", "", `Seat ${seat} `);
      const select = el("select", "seat-kind");
      select.dataset.seat = String(seat);
      ["human", ...catalogue.bots].forEach((name) => {
        const option = el("option", "", name);
        option.value = name;
        select.append(option);
      });
      select.value = old[seat] || (seat === 0 ? "human" : "counting");
      label.append(select);
      box.append(label);
    }
  }

  function policies() {
    const box = $("policies");
    box.replaceChildren();
    Object.entries(catalogue.policies).forEach(([family, names]) => {
      const label = el("label", "", `${family} `);
      const select = el("select", "policy");
      select.dataset.family = family;
      const usual = el("option", "", "(the game's own)");
      usual.value = "";
      select.append(usual);
      names.forEach((name) => {
        const option = el("option", "", name);
        option.value = name;
        select.append(option);
      });
      label.append(select);
      box.append(label);
    });
    const game = catalogue.games.find((item) => item.name === $("game").value);
    $("option-help").textContent = game
      ? Object.entries(game.options).map(([name, text]) => `${name}: ${text}`).join("  ")
      : "";
  }

  function value(text) {
    const lower = text.toLowerCase();
    if (text === "" || ["yes", "true", "on"].includes(lower)) return true;
    if (["no", "false", "off"].includes(lower)) return false;
    if (/^[0-9]+$/.test(text)) return Number(text);
    return text;
  }

  function options() {
    const chosen = {};
    document.querySelectorAll(".policy").forEach((select) => {
      if (select.value) chosen[select.dataset.family] = select.value;
    });
    $("options").value.split(",").map((item) => item.trim()).filter(Boolean).forEach((item) => {
      const [name, ...rest] = item.split("=");
      chosen[name.trim().replace(/-/g, "_")] = value(rest.join("=").trim());
    });
    return chosen;
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  function showLinks(data) {
    created = data;
    const list = $("join-links");
    list.replaceChildren();
    Object.entries(data.seats).forEach(([seat, link]) => {
      const item = el("li", "join-link", `Seat ${seat}: `);
      item.dataset.seat = seat;
      const anchor = el("a", "", link);
      anchor.href = link;
      anchor.target = "_blank";
      item.append(anchor);
      list.append(item);
    });
    $("spectator-link").textContent = data.spectator;
    $("spectator-link").href = data.spectator;
    $("host-token").textContent = data.host;
    $("links").hidden = false;
  }

  $("create").addEventListener("click", async () => {
    $("error").textContent = "";
    try {
      const seats = [...document.querySelectorAll(".seat-kind")].map((select) => select.value);
      showLinks(await post("/api/tables", {
        game: $("game").value, players: Number($("players").value), options: options(), seats,
      }));
    } catch (error) {
      $("error").textContent = error.message;
    }
  });

  $("close").addEventListener("click", async () => {
    if (!created) return;
    try {
      await post(`/api/tables/${created.table}/close`, { host: created.host });
      $("links").hidden = true;
    } catch (error) {
      $("error").textContent = error.message;
    }
  });

  fetch("/api/games").then((response) => response.json()).then((data) => {
    catalogue = data;
    data.games.forEach((game) => {
      const option = el("option", "", game.title);
      option.value = game.name;
      $("game").append(option);
    });
    $("players").addEventListener("input", seatKinds);
    $("game").addEventListener("change", policies);
    seatKinds();
    policies();
  });
})();
