/**
 * The browse panel: a stack of lists, one per level. Choosing an item outlines it, frames it, draws its
 * children for the view and opens the list of its children below; choosing higher up closes what was below.
 */
import { LEVELS } from './browseLevels.js';
import { addressLine } from './format.js';
import { debounce } from './viewport.js';

const MAX_LIST_ITEMS = 200;
const FILTER_DEBOUNCE_MS = 250;

function element(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function createBrowse({ container, api, status, layers, outline, pin }) {
  /** `{ levelName, parent, element, childLayer, chosenId, asked, reload, setItems }`, from the top level down. */
  let sections = [];

  function closeFrom(depth) {
    for (const section of sections.splice(depth)) {
      section.childLayer?.remove();
      section.element.remove();
    }
  }

  function buildSection(depth, levelName, parent) {
    const level = LEVELS[levelName];
    const root = element('section', { class: 'level', 'data-testid': `level-${levelName}` });
    const headingId = `level-${depth}-heading`;
    root.setAttribute('aria-labelledby', headingId);
    root.append(element('h3', { id: headingId }, level.title(parent)));
    const count = element('p', { class: 'muted', 'data-testid': `count-${levelName}`, 'aria-live': 'polite' }, '…');
    const list = element('ul', { class: 'items', 'data-testid': `items-${levelName}` });
    const section = { levelName, parent, element: root, childLayer: null, asked: 0 };

    let filter;
    if (level.filter) {
      const label = element('label', { class: 'filter' }, `Filter ${level.plural} by name`);
      filter = element('input', { type: 'search', 'data-testid': `filter-${levelName}`, maxlength: '100' });
      label.append(filter);
      root.append(label);
      filter.addEventListener(
        'input',
        debounce(() => section.reload(), FILTER_DEBOUNCE_MS),
      );
    }
    root.append(count, list);

    section.setItems = (items) => {
      const shown = items.slice(0, MAX_LIST_ITEMS);
      const noun = items.length === 1 ? level.noun : level.plural;
      count.textContent =
        items.length > shown.length
          ? `${items.length} ${noun}, the first ${shown.length} listed: filter to narrow`
          : `${items.length} ${noun}`;
      list.replaceChildren(
        ...shown.map((item) => {
          // A list asked again (a filter, a new key) keeps showing which item is chosen.
          const chosen = String(item.id === section.chosenId);
          const button = element('button', { type: 'button', 'aria-pressed': chosen }, item.name);
          if (item.note) button.append(' ', element('span', { class: 'note' }, item.note));
          button.addEventListener('click', () => {
            for (const other of list.querySelectorAll('button')) other.setAttribute('aria-pressed', 'false');
            button.setAttribute('aria-pressed', 'true');
            choose(depth, item);
          });
          const row = element('li');
          row.append(button);
          return row;
        }),
      );
    };

    section.reload = async () => {
      if (!level.list) return;
      const asked = ++section.asked;
      count.textContent = 'Loading…';
      try {
        const items = await level.list(api, parent, filter?.value.trim() ?? '');
        if (asked === section.asked) section.setItems(items);
      } catch (error) {
        status.error(error);
        if (asked === section.asked) count.textContent = `Could not load the ${level.plural}`;
      }
    };
    return section;
  }

  function open(depth, levelName, parent) {
    closeFrom(depth);
    const section = buildSection(depth, levelName, parent);
    sections.push(section);
    container.append(section.element);
    section.reload();
    return section;
  }

  async function pinAddress(level, item) {
    try {
      const feature = await level.point(api, item);
      if (!feature) return;
      const [lon, lat] = feature.geometry.coordinates;
      pin.show({ lat, lon, title: addressLine(feature.properties), lines: [] });
    } catch (error) {
      status.error(error);
    }
  }

  async function choose(depth, item) {
    const section = sections[depth];
    const level = LEVELS[section.levelName];
    closeFrom(depth + 1);
    section.childLayer?.remove();
    section.childLayer = null;
    section.chosenId = item.id;
    if (level.point) return pinAddress(level, item);

    status.info(`${level.noun} ${item.name}: loading its outline…`);
    try {
      item.feature = (await level.outline(api, item, section.parent)) ?? undefined;
    } catch (error) {
      status.error(error);
    }
    // Another item was chosen (or this one again) while the outline loaded: the later choice wins.
    if (sections[depth] !== section || section.chosenId !== item.id || sections.length !== depth + 1) return;

    const child = level.child ? LEVELS[level.child] : null;
    const childSection = child ? open(depth + 1, level.child, item) : null;
    if (level.childLayerUrl) {
      section.childLayer = layers.add({
        urlsFor: (view) => [level.childLayerUrl(item, view)],
        onData: (features) => {
          status.info(
            `${features.length} ${features.length === 1 ? child.noun : child.plural} of ${item.name} in view`,
          );
          if (child.fromLayer && sections.includes(childSection)) childSection.setItems(features.map(child.fromLayer));
        },
      });
    }
    // Framing the item moves the map, which asks every view layer, the new children included.
    if (item.feature) outline.show(item.feature, { frame: true });
    else section.childLayer?.refresh();
  }

  return {
    /** Starts the stack again at `levelName` (country or city). */
    start(levelName) {
      outline.clear();
      open(0, levelName, null);
    },
    /** After a new key: every open list asks again. */
    reload() {
      for (const section of sections) section.reload();
    },
  };
}
