// The explainer's widgets are loaded one per task, in page order, after the
// first screen's figure: defining them as the page's module ran built all
// five figures in one task of 0.1-0.4 s (Lighthouse's total blocking time).
const nextTask = () => new Promise((done) => setTimeout(done));

/** Runs each loader (() => import(...)) in a task of its own, in order; resolves when all ran. */
export async function loadInTurn(loaders) {
  for (const load of loaders) {
    await nextTask();
    await load();
  }
}
