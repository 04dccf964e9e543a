/** Whether an element is on screen (or close to it), from one shared IntersectionObserver. */
import { useEffect, useState, type RefObject } from 'react';

type Callback = (visible: boolean) => void;
const callbacks = new WeakMap<Element, Callback>();
let observer: IntersectionObserver | null = null;

function shared(): IntersectionObserver | null {
  if (typeof IntersectionObserver === 'undefined') return null;
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) callbacks.get(entry.target)?.(entry.isIntersecting);
    },
    // A screen's worth of margin: editors are ready before they scroll into view.
    { rootMargin: '100% 0px' },
  );
  return observer;
}

export function useInView(ref: RefObject<Element | null>): boolean {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = ref.current;
    const io = shared();
    if (!element || !io) {
      setVisible(true);
      return;
    }
    callbacks.set(element, setVisible);
    io.observe(element);
    return () => {
      io.unobserve(element);
      callbacks.delete(element);
    };
  }, [ref]);
  return visible;
}
