import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AcceptsApeKey, Auth, RateLimit } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import {
  AddTagDto,
  CustomThemeDto,
  CustomThemeIdDto,
  EditCustomThemeDto,
  EditTagDto,
  FavoriteQuoteDto,
  TagParamDto,
} from './dto/collections.dto';
import { CustomThemesService } from './custom-themes.service';
import { FavoriteQuotesService } from './favorite-quotes.service';
import { TagsService } from './tags.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';

/** Tags, custom themes and favourite quotes: always the caller's own (someone else's id is a 404). */
@ApiTags('users')
@Controller('users')
export class UsersCollectionsController {
  constructor(
    private readonly tags: TagsService,
    private readonly themes: CustomThemesService,
    private readonly favorites: FavoriteQuotesService,
  ) {}

  @Get('tags')
  @AcceptsApeKey()
  @RateLimit('userTagsGet')
  async listTags(@Auth() auth: AuthContext) {
    return ok('Tags retrieved', await this.tags.list(auth.uid));
  }

  /** The original platform answers an added tag with "Tag updated"; its clients expect that text. */
  @Post('tags')
  @RateLimit('userTagsUpdate')
  @ApiFailure(400, 'Maximum number of tags reached')
  async addTag(@Auth() auth: AuthContext, @Body() body: AddTagDto) {
    return ok('Tag updated', await this.tags.add(auth.uid, body.tagName));
  }

  @Patch('tags')
  @RateLimit('userTagsUpdate')
  @ApiFailure(404, 'Tag not found')
  async renameTag(@Auth() auth: AuthContext, @Body() body: EditTagDto) {
    await this.tags.rename(auth.uid, body.tagId, body.newName);
    return ok('Tag updated');
  }

  @Delete('tags/:tagId')
  @RateLimit('userTagsUpdate')
  @ApiFailure(404, 'Tag not found')
  async deleteTag(@Auth() auth: AuthContext, @Param() params: TagParamDto) {
    await this.tags.delete(auth.uid, params.tagId);
    return ok('Tag deleted');
  }

  @Delete('tags/:tagId/personalBest')
  @RateLimit('userTagsUpdate')
  @ApiFailure(404, 'Tag not found')
  async clearTagPersonalBests(@Auth() auth: AuthContext, @Param() params: TagParamDto) {
    await this.tags.clearPersonalBests(auth.uid, params.tagId);
    return ok('Tag PB cleared');
  }

  @Get('customThemes')
  @RateLimit('userCustomThemeGet')
  async listThemes(@Auth() auth: AuthContext) {
    return ok('Custom themes retrieved', await this.themes.list(auth.uid));
  }

  @Post('customThemes')
  @RateLimit('userCustomThemeUpdate')
  @ApiFailure(409, 'Maximum number of custom themes reached')
  async addTheme(@Auth() auth: AuthContext, @Body() body: CustomThemeDto) {
    return ok('Custom theme added', await this.themes.add(auth.uid, body.name, body.colors));
  }

  @Patch('customThemes')
  @RateLimit('userCustomThemeUpdate')
  @ApiFailure(404, 'Custom theme not found')
  async editTheme(@Auth() auth: AuthContext, @Body() body: EditCustomThemeDto) {
    await this.themes.update(auth.uid, body.themeId, body.theme.name, body.theme.colors);
    return ok('Custom theme updated');
  }

  @Delete('customThemes')
  @RateLimit('userCustomThemeUpdate')
  @ApiFailure(404, 'Custom theme not found')
  async deleteTheme(@Auth() auth: AuthContext, @Body() body: CustomThemeIdDto) {
    await this.themes.delete(auth.uid, body.themeId);
    return ok('Custom theme removed');
  }

  @Get('favoriteQuotes')
  @RateLimit('quoteFavoriteGet')
  async listFavorites(@Auth() auth: AuthContext) {
    return ok('Favorite quotes retrieved', await this.favorites.list(auth.uid));
  }

  @Post('favoriteQuotes')
  @RateLimit('quoteFavoriteUpdate')
  @ApiFailure(409, 'Maximum number of favorite quotes reached')
  async addFavorite(@Auth() auth: AuthContext, @Body() body: FavoriteQuoteDto) {
    await this.favorites.add(auth.uid, body.language, body.quoteId);
    return ok('Quote added to favorites');
  }

  @Delete('favoriteQuotes')
  @RateLimit('quoteFavoriteUpdate')
  async removeFavorite(@Auth() auth: AuthContext, @Body() body: FavoriteQuoteDto) {
    await this.favorites.remove(auth.uid, body.language, body.quoteId);
    return ok('Quote removed from favorites');
  }
}
