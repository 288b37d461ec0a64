import type { Scenario } from '../../scenario-types';

const LAYOUT_CSS = `/* The app shell: header, sidebar, content, footer. */
.shell {
  display: flex;
  flex-direction: column;
}

.shell__header {
  height: 64px;
  border-bottom: 1px solid var(--line);
}

.shell__body {
  display: flex;
}

.shell__sidebar {
  width: 280px;
  position: fixed;
  top: 64px;
  bottom: 0;
  overflow-y: auto;
  background: var(--panel);
}

.shell__content {
  margin-left: 280px;
  flex: 1;
  padding: 24px;
}

.shell__footer {
  height: 120px;
  background: var(--panel-dark);
}
`;

const SHELL_JSX = `import { Logo } from './Logo';
import { SearchBox } from './SearchBox';
import { FooterLinks } from './FooterLinks';
import '../styles/layout.css';

export function Shell({ nav, children }) {
  return (
    <div className="shell">
      <header className="shell__header">
        <Logo />
        <SearchBox />
      </header>
      <div className="shell__body">
        <aside className="shell__sidebar">{nav}</aside>
        <main className="shell__content">{children}</main>
      </div>
      <footer className="shell__footer">
        <FooterLinks />
      </footer>
    </div>
  );
}
`;

const GRID_CSS = `/* The app shell: header, sidebar, content, footer, as one grid. */
.shell {
  display: grid;
  grid-template-columns: 280px 1fr;
  grid-template-rows: 64px 1fr auto;
  grid-template-areas:
    "header  header"
    "sidebar content"
    "footer  footer";
  min-height: 100vh;
}

.shell__header {
  grid-area: header;
  border-bottom: 1px solid var(--line);
}

/* The wrapper stays in Shell.jsx; its children take part in the shell's grid. */
.shell__body {
  display: contents;
}

.shell__sidebar {
  grid-area: sidebar;
  overflow-y: auto;
  background: var(--panel);
}

.shell__content {
  grid-area: content;
  min-width: 0;
  padding: 24px;
}

.shell__footer {
  grid-area: footer;
  height: 120px;
  background: var(--panel-dark);
}
`;

// The visual regression suite (Playwright screenshots in CI); here it prints the report of the last run.
const VISUAL_SH = `#!/bin/sh
css=web/src/styles/layout.css
echo ''
echo 'Running 4 tests using 2 workers'
echo ''
if grep -q 'grid-template-areas' $css; then
  echo '  ✓  1 [chromium] › shell.spec.ts:9:3 › shell › home, 1440px (1.9s)'
  echo '  ✓  2 [chromium] › shell.spec.ts:17:3 › shell › order history scrolled to the bottom, 1440px (2.4s)'
  if grep -q 'max-width: 768px' $css; then
    echo '  ✓  3 [chromium] › shell.spec.ts:27:3 › shell › order history, 768px (2.2s)'
    echo '  ✓  4 [chromium] › shell.spec.ts:36:3 › shell › checkout, 390px (1.7s)'
    echo ''
    echo '  4 passed (9.1s)'
    exit 0
  fi
  echo '  ✘  3 [chromium] › shell.spec.ts:27:3 › shell › order history, 768px (2.6s)'
  echo '  ✓  4 [chromium] › shell.spec.ts:36:3 › shell › checkout, 390px (1.7s)'
  echo ''
  echo '  1) [chromium] › shell.spec.ts:27:3 › shell › order history, 768px'
  echo ''
  echo '    Error: Screenshot comparison failed:'
  echo ''
  echo '      21504 pixels (ratio 0.03 of all image pixels) are different.'
  echo ''
  echo '    Expected: web/tests/__screenshots__/shell.spec.ts/order-history-768.png'
  echo '    Received: web/test-results/shell-order-history-768/order-history-768-actual.png'
  echo '        Diff: web/test-results/shell-order-history-768/order-history-768-diff.png'
  echo ''
  echo '    At 768px the sidebar keeps its 280px column and the order table is squeezed to 488px;'
  echo '    the baseline has the sidebar stacked above the content.'
  echo ''
  echo '  1 failed'
  echo '    [chromium] › shell.spec.ts:27:3 › shell › order history, 768px'
  echo '  3 passed (9.8s)'
  exit 1
fi
echo '  ✓  1 [chromium] › shell.spec.ts:9:3 › shell › home, 1440px (1.8s)'
echo '  ✘  2 [chromium] › shell.spec.ts:17:3 › shell › order history scrolled to the bottom, 1440px (2.5s)'
echo '  ✘  3 [chromium] › shell.spec.ts:27:3 › shell › order history, 768px (2.6s)'
echo '  ✓  4 [chromium] › shell.spec.ts:36:3 › shell › checkout, 390px (1.6s)'
echo ''
echo '  1) [chromium] › shell.spec.ts:17:3 › shell › order history scrolled to the bottom, 1440px'
echo ''
echo '    Error: Screenshot comparison failed: 61440 pixels (ratio 0.05 of all image pixels) are different.'
echo '    The fixed .shell__sidebar (top: 64px; bottom: 0) is drawn over the first 280px of .shell__footer.'
echo ''
echo '  2) [chromium] › shell.spec.ts:27:3 › shell › order history, 768px'
echo ''
echo '    Error: Screenshot comparison failed: 40960 pixels (ratio 0.06 of all image pixels) are different.'
echo ''
echo '  2 failed'
echo '  2 passed (9.6s)'
exit 1
`;

/** The model lays out three ways; the user picks the second (with two conditions); a breakpoint snapshot is still failing. */
export const threeOptionsCssGrid: Scenario = {
  name: 'three-options-css-grid',
  covers: 'CSS layout: three options proposed, the user picks the second with conditions; the chosen grid is the decision, the 768px snapshot still fails',
  repo: {
    'web/src/styles/layout.css': LAYOUT_CSS,
    'web/src/components/Shell.jsx': SHELL_JSX,
    'Makefile': '.PHONY: visual\nvisual:\n\t@sh scripts/visual.sh\n',
    'scripts/visual.sh': VISUAL_SH,
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: "On the order history page the left sidebar sits on top of the footer when you scroll all the way down. Have a look at the shell layout and tell me how you'd fix it. Don't change anything yet.",
          actions: [
            { tool: 'Read', path: 'web/src/styles/layout.css' },
            { tool: 'Read', path: 'web/src/components/Shell.jsx' },
            { tool: 'Bash', command: 'make visual', description: 'Run the visual regression suite' },
            {
              text: "The sidebar is `position: fixed; top: 64px; bottom: 0`, so it ignores the footer entirely and paints over its first 280px; the content only dodges it with margin-left. The visual suite shows it (order history at 1440px fails, and 768px too).\n\nThree ways to fix it:\n1. Make the sidebar `position: sticky; top: 64px; align-self: flex-start` inside .shell__body: smallest change, but a sidebar taller than the viewport can't be scrolled to its end.\n2. Turn the shell into a CSS grid with grid-template-areas (header / sidebar + content / footer): the footer gets its own row and can't be covered; .shell__body becomes `display: contents` so the markup can stay.\n3. Keep the fixed sidebar and shrink it from JavaScript: a ResizeObserver in Shell.jsx that sets `bottom` to the footer's visible height.\n\nWhich one do you want?",
            },
          ],
        },
        {
          prompt: "Let's go with 2. Keep the sidebar at 280px, and don't touch the header markup in Shell.jsx, the marketing team's A/B test depends on it.",
          actions: [
            { tool: 'Write', path: 'web/src/styles/layout.css', content: GRID_CSS },
            { tool: 'Bash', command: 'make visual', description: 'Run the visual regression suite' },
            {
              text: "The shell is a grid now (web/src/styles/layout.css): columns 280px / 1fr, areas header / sidebar content / footer, `.shell__body { display: contents }` so Shell.jsx and its header markup are untouched. The footer overlap is gone: both 1440px snapshots pass, and so does checkout at 390px.\n\nStill failing: order history at 768px. The sidebar keeps its 280px column and squeezes the order table to 488px, while the baseline has the sidebar stacked above the content.\n\nNext step: add a `@media (max-width: 768px)` rule to layout.css that switches the grid to a single column (areas header / sidebar / content / footer), then rerun `make visual`.",
            },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: "what's left?" },
  facts: [
    { id: 'the decision: the grid layout (option 2)', in: ['facts', 'objective', 'done', 'next_valid_action'], pattern: 'grid' },
    { id: "the user's conditions: 280px sidebar, header markup untouched", in: ['facts', 'objective', 'rejected', 'next_valid_action'], pattern: '280 ?px|header markup|Shell\\.jsx' },
    { id: 'the open 768px snapshot failure', in: ['errors'], pattern: '768' },
    { id: 'next: the 768px media query, one column', in: ['next_valid_action'], pattern: '768|@media|media query|single column|one column|breakpoint' },
    { id: 'layout.css in the files', in: ['files'], pattern: 'styles/layout\\.css' },
  ],
  antiFacts: [
    { id: 'a turned-down option (sticky, ResizeObserver) as the plan', in: ['facts', 'objective', 'next_valid_action'], pattern: 'sticky|ResizeObserver' },
    { id: 'still waiting on the choice between the options', in: ['waiting_on'], pattern: 'which (one|option|approach)|option [123]|choose|pick' },
    { id: 'the fixed 1440px overlap shown as an open error', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(1440|scrolled to the bottom)' },
  ],
};
