// The code editor of the exercises: CodeMirror 6 (syntax highlighting, line numbers, indentation,
// undo, bracket matching, search), bundled by esbuild at build time into assets/js/editor.js,
// which only pages with exercises load. Tab indents; Escape then Tab leaves the editor, as
// CodeMirror documents for keyboard users.
// The editor lives in a shadow root: there CodeMirror adds its styles as constructed style sheets
// (CSSOM), which the pages' Content-Security-Policy (style-src 'self') allows, where in the
// document itself it would add <style> elements, which the policy blocks.
import { basicSetup } from "codemirror";
import { indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";

const THEME = EditorView.theme({
  "&": { fontSize: "0.85rem", border: "1px solid var(--rule, #dadce0)", borderRadius: "4px", background: "var(--surface, #fff)" },
  "&.cm-focused": { outline: "2px solid var(--link, #0b57d0)", outlineOffset: "1px" },
  ".cm-scroller": { maxHeight: "24rem", fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" },
});

/** An editor in a shadow root inside `host` holding `doc`; onChange(text) after every edit. */
export function createEditor(host, doc, { label, onChange }) {
  const root = host.attachShadow({ mode: "open" });
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        python(),
        keymap.of([indentWithTab]),
        THEME,
        EditorView.lineWrapping, // narrow screens wrap long lines rather than scroll sideways
        EditorView.contentAttributes.of({ "aria-label": label }), // an id reference cannot cross the shadow root
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
      ],
    }),
  });
  return {
    view,
    get text() { return view.state.doc.toString(); },
    set text(value) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } }); },
  };
}
