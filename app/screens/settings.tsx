import { useEffect, useState } from 'preact/hooks';
import { FormScreen, useForm } from '../parts/form-screen.tsx';
import { DangerZone } from '../parts/settings-danger-zone.tsx';
import { GroupForm } from '../parts/settings-group.tsx';
import { SettingsIndex } from '../parts/settings-index.tsx';
import { askBeforeLeaving } from '../router.ts';
import { GROUPS } from '../settings-model.ts';

/**
 * Every setting of the form in sections, each saved on its own
 * (docs/dashboard.md#settings-and-fields), an index of them at the top.
 */
export function SettingsScreen(props: { formId: string }) {
  const loaded = useForm(props.formId);
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set());
  useLeaveQuestion(dirty);
  return (
    <FormScreen loaded={loaded} class="settings" title={(form) => `Settings of ${form.name}`}>
      {(form) => (
        <>
          <SettingsIndex groups={GROUPS} unsaved={dirty} />
          {GROUPS.map((group) => (
            <GroupForm
              key={group.id}
              form={form}
              group={group}
              onSaved={loaded.setForm}
              onDirty={(isDirty) =>
                setDirty((now) => {
                  const next = new Set(now);
                  if (isDirty) next.add(group.title);
                  else next.delete(group.title);
                  return next;
                })
              }
            />
          ))}
          <DangerZone form={form} onRotated={loaded.setForm} />
        </>
      )}
    </FormScreen>
  );
}

/**
 * Unsaved changes: the browser asks before the page is left or reloaded, and
 * the app before one of its links leads elsewhere. Keyed by the names, not
 * the count: one group saved as another is changed keeps the count, and the
 * question must name the group that is unsaved now.
 */
function useLeaveQuestion(dirty: ReadonlySet<string>) {
  const unsaved = [...dirty].join(', ').toLowerCase();
  useEffect(() => {
    if (unsaved === '') return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    askBeforeLeaving(() => window.confirm(`Leave without saving ${unsaved}?`));
    return () => {
      window.removeEventListener('beforeunload', ask);
      askBeforeLeaving(undefined);
    };
  }, [unsaved]);
}
