import { useState } from 'preact/hooks';
import { FormScreen, useForm } from '../parts/form-screen.tsx';
import { useLeaveQuestion } from '../parts/leave-question.ts';
import { DangerZone } from '../parts/settings-danger-zone.tsx';
import { GroupForm } from '../parts/settings-group.tsx';
import { SettingsIndex } from '../parts/settings-index.tsx';
import { GROUPS } from '../settings-model.ts';

/**
 * Every setting of the form in sections, each saved on its own
 * (docs/dashboard.md#settings-and-fields), an index of them at the top.
 */
export function SettingsScreen(props: { formId: string }) {
  const loaded = useForm(props.formId);
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set());
  useLeaveQuestion([...dirty].join(', ').toLowerCase());
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
