/**
 * After a navigation the keyboard focus moves to the new page's main heading (its h1), so a keyboard or
 * screen reader user goes on from the page they opened, not from the menu item that opened it. Not on
 * the first load (the browser starts at the top), not when only the search changes (a list's filters and
 * pages keep the focus where it is), and not when the heading stays the same element (a tab of the same
 * page), nor when the page puts the focus somewhere itself (a form's first field). A page still loading
 * gets its heading focused when the heading appears; a page without one focuses <main>.
 */
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';

/** How long a page may take to show its heading before the focus goes to <main> instead. */
const WAIT_MS = 3000;

export function useFocusOnNavigate(mainId: string): void {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const first = useRef(true);
  const lastHeading = useRef<Element | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of path, which it does not read
  useEffect(() => {
    const main = document.getElementById(mainId);
    if (!main) return;
    const heading = () => main.querySelector('h1');
    if (first.current) {
      first.current = false;
      lastHeading.current = heading();
      return;
    }
    const focus = (target: HTMLElement) => {
      // The page put the focus somewhere itself (a form's first field): it keeps it.
      const active = document.activeElement;
      if (active && active !== main && main.contains(active) && active !== lastHeading.current) {
        lastHeading.current = heading();
        return;
      }
      if (target !== main && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: target === main });
      lastHeading.current = target === main ? null : target;
    };
    const fresh = () => {
      const found = heading();
      return found instanceof HTMLElement && found !== lastHeading.current ? found : null;
    };
    const now = fresh();
    if (now) {
      focus(now);
      return;
    }
    // The old page's heading still showing: the new page is loading, or it is a tab of the same page
    // (its heading stays): wait for another heading, and leave the focus alone if none comes.
    const samePage = heading() !== null && heading() === lastHeading.current;
    const observer = new MutationObserver(() => {
      const found = fresh();
      if (found) {
        observer.disconnect();
        clearTimeout(timer);
        focus(found);
      }
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = setTimeout(() => {
      observer.disconnect();
      if (!samePage) focus(main);
    }, WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname, mainId]);
}
