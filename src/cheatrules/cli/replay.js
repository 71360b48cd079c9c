// The replay page's script: it draws each frame's picture from the packed data in the
// data-pictures attribute, and steps through the frames. The pack is described in
// cheatrules/cli/_html.py (pack): "words", "parts" (words joined by spaces) and
// "pictures" (parts joined by newlines, each picture written as edits to the one before).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("pictures").getAttribute("data-pictures"));
  var frames = Array.prototype.slice.call(document.querySelectorAll("#frames .frame"));
  var told = Array.prototype.slice.call(document.querySelectorAll("#lines .line"));
  var story = document.getElementById("story");
  var table = document.getElementById("picture");
  var where = document.getElementById("where");
  var happened = document.getElementById("event");

  // Every picture as a list: its parts' numbers, unpacked once.
  var pictures = [];
  data.pictures.reduce(function (before, edits) {
    var made = [];
    edits.forEach(function (edit) {
      if (typeof edit === "number") {
        made.push(edit);
      } else {
        made.push.apply(made, before.slice(edit[0], edit[0] + edit[1]));
      }
    });
    pictures.push(made);
    return made;
  }, []);
  var spelled = [];  // each part's text, spelled out once a picture needs it
  function part(index) {
    if (spelled[index] === undefined) {
      spelled[index] = data.parts[index].map(function (word) { return data.words[word]; }).join(" ");
    }
    return spelled[index];
  }

  var shown = -1;
  var drawn = -1;
  function show(index) {
    index = Math.max(0, Math.min(frames.length - 1, index));
    shown = index;
    var frame = frames[index];
    var picture = Number(frame.getAttribute("data-picture"));
    if (picture !== drawn) {
      table.innerHTML = pictures[picture].map(part).join("\n");
      drawn = picture;
    }
    told.forEach(function (item, number) {
      item.classList.toggle("current", number === index);
      item.classList.toggle("done", number < index);
    });
    keepInBox(told[index]);
    happened.textContent = frame.textContent;
    where.textContent = where.getAttribute("data-template")
      .replace("%(index)s", String(index + 1)).replace("%(count)s", String(frames.length));
    if (window.history && history.replaceState) {
      history.replaceState(null, "", "#" + (index + 1));
    }
  }

  // Scroll the narration's own box, never the page: the table and the buttons stay put.
  function keepInBox(item) {
    if (!item) { return; }
    var top = item.offsetTop;
    var bottom = top + item.offsetHeight;
    if (top < story.scrollTop || bottom > story.scrollTop + story.clientHeight) {
      story.scrollTop = Math.max(0, top - (story.clientHeight - item.offsetHeight) / 2);
    }
  }

  function target(go) {
    switch (go) {
      case "start": return 0;
      case "back": return shown - 1;
      case "forward": return shown + 1;
      default: return frames.length - 1;
    }
  }
  document.querySelectorAll("#controls button").forEach(function (button) {
    button.addEventListener("click", function () { show(target(button.getAttribute("data-go"))); });
  });
  told.forEach(function (item, number) {
    item.addEventListener("click", function () { show(number); });
  });
  var keys = {ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end"};
  document.addEventListener("keydown", function (event) {
    var go = keys[event.key];
    if (go && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      show(target(go));
    }
  });
  function asked() {
    var found = /^#(\d+)$/.exec(window.location.hash);
    return found ? Number(found[1]) - 1 : 0;
  }
  window.addEventListener("hashchange", function () { show(asked()); });
  show(asked());
})();
