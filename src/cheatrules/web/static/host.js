// The host page: choose a game and its seats, create the table, hand out the links.
// The page is rendered in its reader's language; the words this script shows come from
// the server's words table (the catalogs), never from the script.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const words = JSON.parse($("words").textContent);
  const say = (key, values) =>
    words[key].replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
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
      const label = el("label", "", say("seat", { seat: seat }) + " ");
      const select = el("select", "seat-kind");
      select.dataset.seat = String(seat);
      ["human", ...catalogue.bots].forEach((name) => {
        const option = el("option", "", name === "human" ? words.human : name);
        option.value = name;
        select.append(option);
      });
      select.value = old[seat] || (seat === 0 ? "human" : "counting");
      label.append(select);
      box.append(label);
    }
  }

  // The players the chosen game takes, from its Variant record (/api/games).
  function playerRange() {
    const game = catalogue.games.find((each) => each.name === $("game").value);
    if (!game) return;
    const input = $("players");
    const [fewest, most] = game.players;
    input.min = String(fewest);
    input.max = String(most);
    const players = Number(input.value) || fewest;
    input.value = String(Math.min(most, Math.max(fewest, players)));
    seatKinds();
  }

  function policies() {
    const box = $("policies");
    box.replaceChildren();
    Object.entries(catalogue.policies).forEach(([family, names]) => {
      const label = el("label", "", `${family} `);
      const select = el("select", "policy");
      select.dataset.family = family;
      const usual = el("option", "", words.games_own);
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
      const item = el("li", "join-link", say("seat", { seat: seat }) + ": ");
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
      showLinks(await post(`/api/tables?lang=${words.lang}`, {
        game: $("game").value, players: Number($("players").value), options: options(), seats,
      }));
    } catch (error) {
      $("error").textContent = error.message;
    }
  });

  $("close").addEventListener("click", async () => {
    if (!created) return;
    try {
      await post(`/api/tables/${created.table}/close?lang=${words.lang}`, { host: created.host });
      $("links").hidden = true;
    } catch (error) {
      $("error").textContent = error.message;
    }
  });

  const menu = $("language");
  Object.entries(words.languages).forEach(([code, name]) => {
    const option = el("option", "", name);
    option.value = code;
    menu.append(option);
  });
  menu.value = words.lang;
  menu.addEventListener("change", () => {
    const address = new URL(location.href);
    address.searchParams.set("lang", menu.value);
    location.href = address.toString();  // the page again, in that language
  });

  fetch(`/api/games?lang=${words.lang}`).then((response) => response.json()).then((data) => {
    catalogue = data;
    data.games.forEach((game) => {
      const option = el("option", "", game.title);
      option.value = game.name;
      $("game").append(option);
    });
    $("players").addEventListener("input", seatKinds);
    $("game").addEventListener("change", () => {
      playerRange();
      policies();
    });
    playerRange();
    policies();
  });
})();
