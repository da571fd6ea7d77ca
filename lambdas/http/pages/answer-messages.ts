import { ratingScale } from '#domain/field-rules.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import type { AnswerReason } from '#domain/submission-model.ts';

/**
 * What a visitor reads next to a field the checks refused: one sentence per
 * reason code of `checkAnswers` (the server's codes), with the field's own
 * bounds where it has them.
 */
export function answerMessage(field: FieldDefinition, reason: AnswerReason): string {
  switch (reason) {
    case 'required':
      if (field.type === 'file') return 'Please attach a file.';
      if (field.type === 'radio' || field.type === 'select' || field.type === 'rating') {
        return 'Please choose an answer.';
      }
      if (field.type === 'checkbox') {
        return field.options?.length ? 'Please tick at least one box.' : 'Please tick this box.';
      }
      return 'Please fill in this field.';
    case 'invalid_email':
      return 'Please enter an email address, like name@example.com.';
    case 'invalid_number':
      return 'Please enter a number.';
    case 'too_small':
      return `Please enter ${field.min} or more.`;
    case 'too_large':
      return `Please enter ${field.max} or less.`;
    case 'too_short':
      return `Please use at least ${field.minLength} characters.`;
    case 'too_long':
      return `Please use at most ${field.maxLength} characters.`;
    case 'pattern_mismatch':
      return 'Please match the requested format.';
    case 'invalid_option':
      return 'Please choose one of the options.';
    case 'invalid_date':
      return 'Please enter a date (YYYY-MM-DD).';
    case 'invalid_url':
      return 'Please enter a web address starting with http:// or https://.';
    case 'invalid_tel':
      return 'Please enter a phone number (digits, spaces, + - ( ) and . only).';
    case 'invalid_rating': {
      const { min, max } = ratingScale(field);
      return `Please choose a rating from ${min} to ${max}.`;
    }
  }
}
