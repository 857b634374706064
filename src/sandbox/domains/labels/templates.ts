/**
 * The label templates a vanilla Gitea ships (`routers/api/v1/misc/label_templates.go`,
 * `modules/label/parser.go`): `options/label/Default` and `options/label/Advanced.yaml`, in file
 * order. Colours without `#`.
 */

export interface LabelTemplateEntry {
  name: string;
  exclusive: boolean;
  color: string;
  description: string;
}

const plain = (name: string, color: string, description: string): LabelTemplateEntry => ({ name, exclusive: false, color, description });
const excl = (name: string, color: string, description: string): LabelTemplateEntry => ({ name, exclusive: true, color, description });

export const LABEL_TEMPLATES: Record<string, LabelTemplateEntry[]> = {
  Advanced: [
    plain('Kind/Bug', 'ee0701', 'Something is not working'),
    plain('Kind/Feature', '0288d1', 'New functionality'),
    plain('Kind/Enhancement', '84b6eb', 'Improve existing functionality'),
    plain('Kind/Security', '9c27b0', 'This is security issue'),
    plain('Kind/Testing', '795548', 'Issue or pull request related to testing'),
    plain('Kind/Documentation', '37474f', 'Documentation changes'),
    plain('Compat/Breaking', 'c62828', "Breaking change that won't be backward compatible"),
    excl('Reviewed/Duplicate', '616161', 'This issue or pull request already exists'),
    excl('Reviewed/Invalid', '546e7a', 'Invalid issue'),
    excl('Reviewed/Confirmed', '795548', 'Issue has been confirmed'),
    excl("Reviewed/Won't Fix", 'eeeeee', "This issue won't be fixed"),
    excl('Status/Need More Info', '424242', 'Feedback is required to reproduce issue or to continue work'),
    excl('Status/Blocked', '880e4f', 'Something is blocking this issue or pull request'),
    excl('Status/Abandoned', '222222', 'Somebody has started to work on this but abandoned work'),
    excl('Priority/Critical', 'b71c1c', 'The priority is critical'),
    excl('Priority/High', 'd32f2f', 'The priority is high'),
    excl('Priority/Medium', 'e64a19', 'The priority is medium'),
    excl('Priority/Low', '4caf50', 'The priority is low'),
  ],
  Default: [
    plain('bug', 'ee0701', 'Something is not working'),
    plain('duplicate', 'cccccc', 'This issue or pull request already exists'),
    plain('enhancement', '84b6eb', 'New feature'),
    plain('help wanted', '128a0c', 'Need some help'),
    plain('invalid', 'e6e6e6', 'Something is wrong'),
    plain('question', 'cc317c', 'More information is needed'),
    plain('wontfix', 'ffffff', "This won't be fixed"),
  ],
};

/** Display names, sorted as the server lists them. */
export function labelTemplateNames(): string[] {
  return Object.keys(LABEL_TEMPLATES).sort();
}
