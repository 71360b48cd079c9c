// The host page: choose a game and its seats, create the table, hand out the links.
// The page is rendered in its reader's language; the words this script shows come from
// the server's words table and /api/games (the catalogs), never from the script.
//
// Its address's "#" may hold `create=TOKEN` (the token a server open beyond this machine
// asks of whoever creates a table) and `table=ID&host=TOKEN` (the host link: the page
// then shows that table's links and its close button).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const words = JSON.parse($("words").textContent);
  const say = (key, values) =>
    words[key].replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  const hash = new URLSearchParams(location.hash.slice(1));
  const createToken = hash.get("create");
  let catalogue = null;
  let created = null;
  let sent = {};  // the house rules the table was created with, as sent

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const botTitle = (bot) => (catalogue && catalogue.bot_titles && catalogue.bot_titles[bot]) || bot;
  const botChoice = (bot) => say("bot_choice", { bot: botTitle(bot) });

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
        const option = el("option", "", name === "human" ? words.human : botChoice(name));
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

  // The families of house rules, each a menu of its policies in words; the server's
  // older answer (names only) is shown as it is.
  function houseRules() {
    if (catalogue.house_rules) return catalogue.house_rules;
    return Object.entries(catalogue.policies).map(([family, names]) => ({
      family: family, title: family, help: "",
      choices: names.map((name) => ({ name: name, title: name, help: "" })),
    }));
  }

  function policies() {
    const box = $("policies");
    box.replaceChildren();
    houseRules().forEach((family) => {
      const line = el("div", "policy-line");
      const label = el("label", "", `${family.title} `);
      const select = el("select", "policy");
      select.dataset.family = family.family;
      select.title = family.help;
      const usual = el("option", "", words.games_own);
      usual.value = "";
      select.append(usual);
      family.choices.forEach((choice) => {
        const option = el("option", "", choice.title);
        option.value = choice.name;
        option.title = choice.help;
        select.append(option);
      });
      const help = el("span", "policy-help", "");
      select.addEventListener("change", () => {
        const chosen = family.choices.find((choice) => choice.name === select.value);
        help.textContent = chosen ? chosen.help : "";
      });
      label.append(select);
      line.append(label, help);
      box.append(line);
    });
    // The other rules, by the names the field takes: one line each.
    const game = catalogue.games.find((item) => item.name === $("game").value);
    $("option-help").replaceChildren(...Object.entries(game ? game.options : {}).map(
      ([name, text]) => el("div", "option-line", `${name}: ${text}`)));
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

  async function post(url, body, headers) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(headers || {}) },
      body: JSON.stringify(body),
    });
    let data = {};
    try { data = await response.json(); } catch (error) { data = {}; }
    if (!response.ok) throw new Error(data.error || response.statusText || String(response.status));
    return data;
  }

  // A house rule's value in words: a policy's title, yes or no, else the value itself.
  function shownValue(name, given) {
    if (given === true) return words.yes;
    if (given === false) return words.no;
    const family = houseRules().find((each) => each.family === name);
    const choice = family && family.choices.find((each) => each.name === given);
    return choice ? choice.title : String(given);
  }

  function shownRule(name) {
    const family = houseRules().find((each) => each.family === name);
    return family ? family.title : name;
  }

  // What the table is: its game, its seats and the house rules it was made with.
  function describe(settings, rules) {
    const list = $("table-rules");
    list.replaceChildren();
    if (!settings) return;
    const item = (label, text) => {
      const line = el("li", "", `${label} `);
      line.append(el("strong", "", text));
      list.append(line);
    };
    if (settings.title) item(words.game, settings.title);
    if (settings.players) item(words.players, String(settings.players));
    (settings.seats || []).forEach((seat) => {
      const who = seat.kind === "bot" ? botChoice(seat.bot) : words.human;
      item(say("seat", { seat: seat.seat }), seat.name ? `${seat.name} (${who})` : who);
    });
    Object.entries(rules || settings.options || {}).forEach(([name, given]) => {
      item(shownRule(name), shownValue(name, given));
    });
  }

  function showLinks(data, rules) {
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
    // The host's own link: this page again, showing this table's links.
    const hostLink = new URL("/", data.spectator);
    hostLink.hash = new URLSearchParams({ table: data.table, host: data.host }).toString();
    $("host-link").textContent = hostLink.href;
    $("host-link").href = hostLink.href;
    $("host-token").textContent = data.host;
    describe(data.settings, rules);
    $("links").hidden = false;
  }

  // This page's address keeps the table it shows (and the creation token), for a reload.
  function remember(data) {
    const kept = new URLSearchParams();
    if (createToken) kept.set("create", createToken);
    if (data) {
      kept.set("table", data.table);
      kept.set("host", data.host);
    }
    const address = new URL(location.href);
    address.hash = kept.toString();
    history.replaceState(null, "", address);
  }

  $("create").addEventListener("click", async () => {
    $("error").textContent = "";
    try {
      const seats = [...document.querySelectorAll(".seat-kind")].map((select) => select.value);
      sent = options();
      const headers = createToken ? { Authorization: `Bearer ${createToken}` } : {};
      const data = await post(`/api/tables?lang=${words.lang}`, {
        game: $("game").value, players: Number($("players").value), options: sent, seats,
      }, headers);
      showLinks(data, sent);
      remember(data);
    } catch (error) {
      $("error").textContent = error.message;
    }
  });

  $("close").addEventListener("click", async () => {
    if (!created) return;
    $("error").textContent = "";
    try {
      await post(`/api/tables/${encodeURIComponent(created.table)}/close?lang=${words.lang}`,
        { host: created.host });
      $("links").hidden = true;
      created = null;
      remember(null);
    } catch (error) {
      $("error").textContent = error.message;
    }
  });

  // A host link opened: the table's links again, asked for with the host token.
  async function hostLink() {
    const table = hash.get("table");
    const host = hash.get("host");
    if (!table || !host) return;
    try {
      showLinks(await post(`/api/tables/${encodeURIComponent(table)}/links?lang=${words.lang}`,
        { host: host }));
    } catch (error) {
      $("error").textContent = error.message;
    }
  }

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
    location.href = address.toString();  // the page again, in that language (the # kept)
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
    return hostLink();
  });
})();
