// The small buttons under a message: copy (both), edit (a user message: the conversation branches from before it)
// and regenerate (an answer: it is asked again from the step before it). The page decides what edit and regenerate
// do (main.js, through branch.js); copying is done here.

const button = (label, symbol, onclick) => {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "act";
  b.title = label;
  b.setAttribute("aria-label", label);
  b.textContent = symbol;
  b.onclick = onclick;
  return b;
};

/** Copies text to the clipboard (a textarea and execCommand where the Clipboard API is not allowed: plain http). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const t = document.createElement("textarea");
    t.value = text;
    t.style.position = "fixed";
    t.style.opacity = "0";
    document.body.append(t);
    t.select();
    document.execCommand("copy");
    t.remove();
  }
}

function copyButton(textOf) {
  const b = button("Copy", "Copy", async () => {
    await copyText(textOf());
    b.classList.add("done");
    b.textContent = "Copied";
    setTimeout(() => { b.classList.remove("done"); b.textContent = "Copy"; }, 1200);
  });
  return b;
}

/** Buttons for a user message: copy and edit. `onEdit(row, text)` gets the edited text. */
export function userActions(row, bubble, onEdit) {
  const bar = document.createElement("div");
  bar.className = "msg-actions";
  const edit = button("Edit", "Edit", () => {
    if (row.querySelector(".edit-form")) return;
    const form = document.createElement("form");
    form.className = "edit-form";
    const area = document.createElement("textarea");
    area.value = bubble.textContent;
    area.rows = Math.min(8, area.value.split("\n").length + 1);
    area.setAttribute("aria-label", "Edited message");
    const save = Object.assign(document.createElement("button"), { type: "submit", className: "primary", textContent: "Send" });
    const cancel = Object.assign(document.createElement("button"), { type: "button", className: "plain", textContent: "Cancel" });
    form.append(area, cancel, save);
    const close = () => { form.remove(); bubble.hidden = false; bar.hidden = false; };
    cancel.onclick = close;
    form.onsubmit = (e) => {
      e.preventDefault();
      const text = area.value.trim();
      if (!text) return;
      close();
      onEdit(row, text);
    };
    area.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); form.requestSubmit(); }
      if (e.key === "Escape") close();
    });
    bubble.hidden = true;
    bar.hidden = true;
    row.append(form);
    area.focus();
  });
  bar.append(copyButton(() => bubble.textContent), edit);
  return bar;
}

/** Buttons for an answer: copy (its Markdown source) and regenerate. */
export function answerActions(row, textOf, onRegenerate) {
  const bar = document.createElement("div");
  bar.className = "msg-actions";
  bar.append(copyButton(textOf), button("Regenerate", "Regenerate", () => onRegenerate(row)));
  return bar;
}

/** A copy button on each code block of a rendered answer (its text, without the highlighting). */
export function addCodeCopy(body) {
  for (const pre of body.querySelectorAll("pre")) {
    const b = button("Copy code", "Copy", async () => {
      await copyText(pre.querySelector("code")?.textContent ?? pre.textContent);
      b.textContent = "Copied";
      setTimeout(() => { b.textContent = "Copy"; }, 1200);
    });
    b.className = "code-copy";
    pre.append(b);
  }
}
